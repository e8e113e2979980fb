/// Kafka protocol request types (API keys), by the names the Kafka protocol guide gives them.
public enum KafkaAPIKey {
    /// The API keys fault injection can name, e.g. `Produce` → 0.
    public static let byName: [String: Int16] = [
        "Produce": 0, "Fetch": 1, "ListOffsets": 2, "Metadata": 3, "LeaderAndIsr": 4, "StopReplica": 5,
        "UpdateMetadata": 6, "ControlledShutdown": 7, "OffsetCommit": 8, "OffsetFetch": 9,
        "FindCoordinator": 10, "JoinGroup": 11, "Heartbeat": 12, "LeaveGroup": 13, "SyncGroup": 14,
        "DescribeGroups": 15, "ListGroups": 16, "SaslHandshake": 17, "ApiVersions": 18, "CreateTopics": 19,
        "DeleteTopics": 20, "DeleteRecords": 21, "InitProducerId": 22, "OffsetForLeaderEpoch": 23,
        "AddPartitionsToTxn": 24, "AddOffsetsToTxn": 25, "EndTxn": 26, "WriteTxnMarkers": 27,
        "TxnOffsetCommit": 28, "DescribeAcls": 29, "CreateAcls": 30, "DeleteAcls": 31, "DescribeConfigs": 32,
        "AlterConfigs": 33, "AlterReplicaLogDirs": 34, "DescribeLogDirs": 35, "SaslAuthenticate": 36,
        "CreatePartitions": 37, "CreateDelegationToken": 38, "RenewDelegationToken": 39,
        "ExpireDelegationToken": 40, "DescribeDelegationToken": 41, "DeleteGroups": 42,
        "ElectLeaders": 43, "IncrementalAlterConfigs": 44, "AlterPartitionReassignments": 45,
        "ListPartitionReassignments": 46, "OffsetDelete": 47,
    ]

    /// The API key named `name` (case-insensitive; a number is taken as it is), or `nil`.
    public static func key(named name: String) -> Int16? {
        if let number = Int16(name) { return number }
        let lowered = name.lowercased()
        return byName.first { $0.key.lowercased() == lowered }?.value
    }
}
