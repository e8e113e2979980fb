import CRdKafka

extension KafkaConsumerMessage {
    /// Copies a consumed `rd_kafka_message_t` (whose `err` is 0) of `topic` into Swift values.
    init(_ message: UnsafePointer<rd_kafka_message_t>, topic: String, assignmentEpoch: UInt64) {
        let raw = message.pointee
        let key = raw.key.map { Array(UnsafeRawBufferPointer(start: $0, count: raw.key_len)) }
        let value = raw.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: raw.len)) } ?? []
        var timestampType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let timestamp = rd_kafka_message_timestamp(message, &timestampType)
        self.init(
            topic: topic, partition: raw.partition, offset: raw.offset, key: key, value: value,
            headers: KafkaHeader.headers(of: message), timestampMs: timestamp >= 0 ? timestamp : nil,
            assignmentEpoch: assignmentEpoch, valueIsNull: raw.payload == nil)
    }
}
