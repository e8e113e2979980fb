import CRdKafka

extension KafkaConsumer {
    /// For each of `partitions`, the offset this consumer reads next, past the records it handed over and
    /// the control records (transaction markers) it skipped; `nil` for a partition with no position yet
    /// (nothing fetched since it was assigned). Asked on the poll thread, without a request to the broker.
    public func positions(_ partitions: [KafkaTopicPartition]) async throws(KafkaError) -> [KafkaTopicPartition: Int64?]
    {
        let client = self.rdClient
        return try await run { () throws(KafkaError) in
            // RD_KAFKA_OFFSET_INVALID (-1001): librdkafka writes the position over it when it has one.
            let list = RDKafkaTopicPartitionList.make(
                partitions.map { KafkaTopicPartitionOffset($0, offset: Int64(RD_KAFKA_OFFSET_INVALID)) })
            defer { rd_kafka_topic_partition_list_destroy(list) }
            let code = rd_kafka_position(client.handle, list)
            if code != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(code, message: "positions") }
            var result: [KafkaTopicPartition: Int64?] = [:]
            for entry in RDKafkaTopicPartitionList.offsets(of: list) {
                result[entry.topicPartition] = entry.offset >= 0 ? entry.offset : nil
            }
            return result
        }
    }
}
