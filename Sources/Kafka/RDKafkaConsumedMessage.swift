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
            headers: Self.headers(of: message), timestampMs: timestamp >= 0 ? timestamp : nil,
            assignmentEpoch: assignmentEpoch)
    }

    private static func headers(of message: UnsafePointer<rd_kafka_message_t>) -> [KafkaHeader] {
        var list: OpaquePointer?
        guard rd_kafka_message_headers(message, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return [] }
        var result: [KafkaHeader] = []
        var index = 0
        var name: UnsafePointer<CChar>?
        var value: UnsafeRawPointer?
        var size = 0
        while rd_kafka_header_get_all(list, index, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR {
            let bytes = value.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) }
            result.append(KafkaHeader(name: name.map { String(cString: $0) } ?? "", value: bytes))
            index += 1
        }
        return result
    }
}
