import CRdKafka

/// Conversions between `rd_kafka_topic_partition_list_t` and Swift arrays.
enum RDKafkaTopicPartitionList {
    /// A new list holding `offsets`; the caller destroys it with `rd_kafka_topic_partition_list_destroy`.
    static func make(_ offsets: [KafkaTopicPartitionOffset]) -> UnsafeMutablePointer<rd_kafka_topic_partition_list_t> {
        // librdkafka aborts on allocation failure, so the list is never NULL.
        let list = rd_kafka_topic_partition_list_new(Int32(clamping: max(offsets.count, 1)))!
        for entry in offsets {
            let element = rd_kafka_topic_partition_list_add(
                list, entry.topicPartition.topic, entry.topicPartition.partition)
            element?.pointee.offset = entry.offset
        }
        return list
    }

    /// A new list holding `topics` (every partition); the caller destroys it.
    static func make(topics: [String]) -> UnsafeMutablePointer<rd_kafka_topic_partition_list_t> {
        // librdkafka aborts on allocation failure, so the list is never NULL.
        let list = rd_kafka_topic_partition_list_new(Int32(clamping: max(topics.count, 1)))!
        for topic in topics { rd_kafka_topic_partition_list_add(list, topic, RD_KAFKA_PARTITION_UA) }
        return list
    }

    /// The entries of `list`, with their offsets.
    static func offsets(of list: UnsafePointer<rd_kafka_topic_partition_list_t>) -> [KafkaTopicPartitionOffset] {
        guard let elements = list.pointee.elems else { return [] }
        return (0..<Int(list.pointee.cnt)).map { index in
            let element = elements[index]
            let topic = element.topic.map { String(cString: $0) } ?? ""
            return KafkaTopicPartitionOffset(topic: topic, partition: element.partition, offset: element.offset)
        }
    }

    /// The first per-partition error in `list`, if any.
    static func firstError(of list: UnsafePointer<rd_kafka_topic_partition_list_t>) -> KafkaError? {
        guard let elements = list.pointee.elems else { return nil }
        for index in 0..<Int(list.pointee.cnt) where elements[index].err != RD_KAFKA_RESP_ERR_NO_ERROR {
            let element = elements[index]
            let topic = element.topic.map { String(cString: $0) } ?? ""
            return KafkaError(
                element.err,
                message: "\(topic)[\(element.partition)]: \(String(cString: rd_kafka_err2str(element.err)))")
        }
        return nil
    }
}
