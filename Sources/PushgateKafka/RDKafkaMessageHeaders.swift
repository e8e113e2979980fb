import CRdKafka

extension KafkaHeader {
    /// The headers of a consumed or produced record, in order, copied.
    static func headers(of message: UnsafePointer<rd_kafka_message_t>) -> [KafkaHeader] {
        var list: OpaquePointer?
        guard rd_kafka_message_headers(message, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return [] }
        var result: [KafkaHeader] = []
        result.reserveCapacity(rd_kafka_header_cnt(list))
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
