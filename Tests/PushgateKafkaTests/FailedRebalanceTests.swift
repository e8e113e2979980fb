import CRdKafka
import PushgateTestSupport
import Synchronization
import Testing

@testable import PushgateKafka

/// Records what a consumer tells its rebalance listener.
private final class RecordingListener: KafkaRebalanceListener {
    let revoked = Mutex<[(partitions: [KafkaTopicPartition], lost: Bool)]>([])
    func partitionsAssigned(_ partitions: [KafkaTopicPartition], epoch: UInt64) {}
    func partitionsRevoked(_ partitions: [KafkaTopicPartition], lost: Bool) -> [KafkaTopicPartitionOffset] {
        revoked.withLock { $0.append((partitions, lost)) }
        return []
    }
}

@Suite("A failed rebalance drops the assignment the way the group's protocol requires")
struct FailedRebalanceTests {
    static let logger = BrokerTesting.logger("kafka-tests", level: .warning)

    @Test func eachProtocolGetsItsOwnCall() {
        #expect(ConsumerGroupMembership.recoveryAfterFailedRebalance(cooperative: false) == .assignNone)
        #expect(ConsumerGroupMembership.recoveryAfterFailedRebalance(cooperative: true) == .incrementalUnassignCurrent)
    }

    @Test func theHeldPartitionsAreLostAndUnassigned() throws {
        let client = try RDKafkaClient.make(
            kind: .consumer, properties: [("bootstrap.servers", "127.0.0.1:9"), ("group.id", "failed-rebalance")],
            callbacks: RDKafkaCallbacks(logger: Self.logger, statisticsHandler: nil))
        defer { client.destroy() }
        let listener = RecordingListener()
        let membership = ConsumerGroupMembership(listener: listener, logger: Self.logger)
        let partitions = [KafkaTopicPartition(topic: "t", partition: 0), KafkaTopicPartition(topic: "t", partition: 1)]
        let list = RDKafkaTopicPartitionList.make(
            partitions.map { KafkaTopicPartitionOffset($0, offset: Int64(RD_KAFKA_OFFSET_INVALID)) })
        defer { rd_kafka_topic_partition_list_destroy(list) }

        membership.rebalance(handle: client.handle, event: RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS, list: list)
        #expect(Set(membership.assignedPartitions) == Set(partitions))
        #expect(assignmentCount(client.handle) == 2)

        membership.rebalance(handle: client.handle, event: RD_KAFKA_RESP_ERR__FAIL, list: list)
        #expect(membership.assignedPartitions.isEmpty)
        #expect(membership.epoch(of: partitions[0]) == 0)
        #expect(assignmentCount(client.handle) == 0, "librdkafka's assignment is dropped too")
        let revoked = listener.revoked.withLock { $0 }
        #expect(revoked.count == 1 && revoked[0].lost && Set(revoked[0].partitions) == Set(partitions))
    }

    private func assignmentCount(_ handle: OpaquePointer) -> Int32 {
        var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
        guard rd_kafka_assignment(handle, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return -1 }
        defer { rd_kafka_topic_partition_list_destroy(list) }
        return list.pointee.cnt
    }
}
