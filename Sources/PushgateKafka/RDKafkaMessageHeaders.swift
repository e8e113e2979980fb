import CRdKafka

/// The headers of a consumed or produced librdkafka message.
enum RDKafkaMessageHeaders {
    /// How many headers `message` has.
    static func count(of message: UnsafePointer<rd_kafka_message_t>) -> Int {
        var list: OpaquePointer?
        guard rd_kafka_message_headers(message, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return 0 }
        return rd_kafka_header_cnt(list)
    }

    /// Calls `body` with each header of `message`, in order: its name and its value's bytes in place
    /// (`nil` for a null value), valid only during the call.
    static func forEach(
        of message: UnsafePointer<rd_kafka_message_t>,
        _ body: (_ name: String, _ value: UnsafeRawBufferPointer?) -> Void
    ) {
        var list: OpaquePointer?
        guard rd_kafka_message_headers(message, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return }
        var index = 0
        var name: UnsafePointer<CChar>?
        var value: UnsafeRawPointer?
        var size = 0
        while rd_kafka_header_get_all(list, index, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR {
            body(name.map { String(cString: $0) } ?? "", value.map { UnsafeRawBufferPointer(start: $0, count: size) })
            index += 1
        }
    }
}

extension KafkaHeader {
    /// The headers of a consumed or produced record, in order, copied.
    static func headers(of message: UnsafePointer<rd_kafka_message_t>) -> [KafkaHeader] {
        var headers: [KafkaHeader] = []
        headers.reserveCapacity(RDKafkaMessageHeaders.count(of: message))
        RDKafkaMessageHeaders.forEach(of: message) {
            headers.append(KafkaHeader(name: $0, value: $1.map { Array($0) }))
        }
        return headers
    }
}
