import CRdKafka

extension KafkaConsumer {
    /// The first and next-to-write offsets of one partition, as the broker reports them.
    public struct Watermarks: Sendable, Equatable {
        /// The oldest offset still stored.
        public var low: Int64
        /// The offset the next record written will get (one past the last).
        public var high: Int64
    }

    /// The watermarks of every partition of `topic`, asked from the brokers on the poll thread.
    public func watermarks(topic: String, timeoutMs: Int32 = 10_000) async throws(KafkaError) -> [Int32: Watermarks] {
        let client = self.rdClient
        return try await run { () throws(KafkaError) in
            var result: [Int32: Watermarks] = [:]
            for partition in try client.partitions(of: topic, timeoutMs: timeoutMs) {
                var low: Int64 = 0
                var high: Int64 = 0
                let code = rd_kafka_query_watermark_offsets(client.handle, topic, partition, &low, &high, timeoutMs)
                if code != RD_KAFKA_RESP_ERR_NO_ERROR {
                    throw KafkaError(code, message: "watermarks of \(topic)[\(partition)]")
                }
                result[partition] = Watermarks(low: low, high: high)
            }
            return result
        }
    }

    /// The watermarks of every partition of `topic`, in two requests per broker (ListOffsets for the
    /// earliest and the latest offset of all partitions at once) instead of two per partition: for a
    /// topic of hundreds of partitions asked often.
    public func listedWatermarks(topic: String, timeoutMs: Int32 = 10_000) async throws(KafkaError)
        -> [Int32: Watermarks]
    {
        let client = self.rdClient
        return try await run { () throws(KafkaError) in
            let partitions = try client.partitions(of: topic, timeoutMs: timeoutMs)
            var result: [Int32: Watermarks] = [:]
            // ListOffsets' special timestamps: -2 the earliest offset, -1 the latest (the high watermark).
            for timestamp in [Int64(-2), -1] {
                let list = RDKafkaTopicPartitionList.make(
                    partitions.map { KafkaTopicPartitionOffset(topic: topic, partition: $0, offset: timestamp) })
                defer { rd_kafka_topic_partition_list_destroy(list) }
                let code = rd_kafka_offsets_for_times(client.handle, list, timeoutMs)
                if code != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(code, message: "offsets of \(topic)") }
                if let error = RDKafkaTopicPartitionList.firstError(of: list) { throw error }
                for entry in RDKafkaTopicPartitionList.offsets(of: list) {
                    let partition = entry.topicPartition.partition
                    var marks = result[partition] ?? Watermarks(low: 0, high: 0)
                    if timestamp == -2 { marks.low = max(entry.offset, 0) } else { marks.high = max(entry.offset, 0) }
                    result[partition] = marks
                }
            }
            return result
        }
    }

    /// For each partition of `topic`, the offset of the first record with a timestamp at or after
    /// `timestampMs`; `nil` for a partition with no such record.
    public func offsets(topic: String, atOrAfter timestampMs: Int64, timeoutMs: Int32 = 10_000) async throws(KafkaError)
        -> [Int32: Int64?]
    {
        let client = self.rdClient
        return try await run { () throws(KafkaError) in
            let partitions = try client.partitions(of: topic, timeoutMs: timeoutMs)
            let list = RDKafkaTopicPartitionList.make(
                partitions.map { KafkaTopicPartitionOffset(topic: topic, partition: $0, offset: timestampMs) })
            defer { rd_kafka_topic_partition_list_destroy(list) }
            let code = rd_kafka_offsets_for_times(client.handle, list, timeoutMs)
            if code != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(code, message: "offsets for times of \(topic)") }
            var result: [Int32: Int64?] = [:]
            for entry in RDKafkaTopicPartitionList.offsets(of: list) {
                result[entry.topicPartition.partition] = entry.offset >= 0 ? entry.offset : nil
            }
            return result
        }
    }

    /// The offsets the consumer's group has committed for every partition of `topic` (each the next
    /// offset to read; `nil` for a partition with no commit), asked from the group coordinator on the poll
    /// thread. The consumer needs no subscription: a consumer configured with the group and no topics can
    /// watch another member's progress without joining the group.
    public func committedOffsets(topic: String, timeoutMs: Int32 = 10_000) async throws(KafkaError) -> [Int32: Int64?] {
        let client = self.rdClient
        return try await run { () throws(KafkaError) in
            let partitions = try client.partitions(of: topic, timeoutMs: timeoutMs)
            let list = RDKafkaTopicPartitionList.make(
                partitions.map {
                    KafkaTopicPartitionOffset(topic: topic, partition: $0, offset: Int64(RD_KAFKA_OFFSET_INVALID))
                })
            defer { rd_kafka_topic_partition_list_destroy(list) }
            let code = rd_kafka_committed(client.handle, list, timeoutMs)
            if code != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(code, message: "committed offsets of \(topic)") }
            if let error = RDKafkaTopicPartitionList.firstError(of: list) { throw error }
            var result: [Int32: Int64?] = [:]
            for entry in RDKafkaTopicPartitionList.offsets(of: list) {
                result[entry.topicPartition.partition] = entry.offset >= 0 ? entry.offset : nil
            }
            return result
        }
    }
}
