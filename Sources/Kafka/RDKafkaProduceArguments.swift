import CRdKafka

/// Builds the `rd_kafka_vu_t` array of one `rd_kafka_produceva` call pointing into the message's own
/// storage, borrowed for the call: librdkafka copies the key and value (`RD_KAFKA_MSG_F_COPY`) and the
/// headers during the call, so nothing is copied beforehand.
enum RDKafkaProduceArguments {
    /// A byte that stands for an empty key, value or header value, so that empty stays empty rather
    /// than becoming null (an empty array may have no storage).
    nonisolated(unsafe) private static let emptyBytes = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

    /// Calls `body` with the arguments of `message` whose opaque is `opaque`; the pointers are only
    /// valid inside `body`.
    static func withArguments<Result>(
        _ message: KafkaProducerMessage, opaque: UnsafeMutableRawPointer,
        _ body: (UnsafeBufferPointer<rd_kafka_vu_t>) -> Result
    ) -> Result {
        var values: [rd_kafka_vu_t] = []
        values.reserveCapacity(6 + message.headers.count)
        return message.topic.withCString { topicName in
            var topic = rd_kafka_vu_t()
            topic.vtype = RD_KAFKA_VTYPE_TOPIC
            topic.u.cstr = topicName
            values.append(topic)
            if let partition = message.partition {
                var entry = rd_kafka_vu_t()
                entry.vtype = RD_KAFKA_VTYPE_PARTITION
                entry.u.i32 = partition
                values.append(entry)
            }
            var flags = rd_kafka_vu_t()
            flags.vtype = RD_KAFKA_VTYPE_MSGFLAGS
            flags.u.i = RD_KAFKA_MSG_F_COPY
            values.append(flags)
            var context = rd_kafka_vu_t()
            context.vtype = RD_KAFKA_VTYPE_OPAQUE
            context.u.ptr = opaque
            values.append(context)
            if let timestamp = message.timestampMs {
                var entry = rd_kafka_vu_t()
                entry.vtype = RD_KAFKA_VTYPE_TIMESTAMP
                entry.u.i64 = timestamp
                values.append(entry)
            }
            return withBytes(message.key) { key in
                if let key {
                    var entry = rd_kafka_vu_t()
                    entry.vtype = RD_KAFKA_VTYPE_KEY
                    entry.u.mem.ptr = UnsafeMutableRawPointer(mutating: key.pointer)
                    entry.u.mem.size = key.count
                    values.append(entry)
                }
                return withBytes(message.value) { value in
                    var entry = rd_kafka_vu_t()
                    entry.vtype = RD_KAFKA_VTYPE_VALUE
                    entry.u.mem.ptr = value.map { UnsafeMutableRawPointer(mutating: $0.pointer) }
                    entry.u.mem.size = value?.count ?? 0
                    values.append(entry)
                    return withHeaders(message.headers[...], appendingTo: &values) { values in
                        values.withUnsafeBufferPointer(body)
                    }
                }
            }
        }
    }

    /// Appends one header entry per header, in order, each pointing into its name and value, then
    /// calls `body`.
    private static func withHeaders<Result>(
        _ headers: ArraySlice<KafkaHeader>, appendingTo values: inout [rd_kafka_vu_t],
        _ body: (inout [rd_kafka_vu_t]) -> Result
    ) -> Result {
        guard let header = headers.first else { return body(&values) }
        return header.name.withCString { name in
            withBytes(header.value) { bytes in
                var entry = rd_kafka_vu_t()
                entry.vtype = RD_KAFKA_VTYPE_HEADER
                entry.u.header.name = name
                entry.u.header.val = bytes?.pointer
                entry.u.header.size = bytes?.count ?? 0
                values.append(entry)
                return withHeaders(headers.dropFirst(), appendingTo: &values, body)
            }
        }
    }

    /// Calls `body` with a non-null pointer to `bytes` and their count, or `nil` for `nil`.
    private static func withBytes<Result>(
        _ bytes: [UInt8]?, _ body: ((pointer: UnsafeRawPointer, count: Int)?) -> Result
    ) -> Result {
        guard let bytes else { return body(nil) }
        return bytes.withUnsafeBytes { buffer in
            body((buffer.baseAddress ?? UnsafeRawPointer(emptyBytes), buffer.count))
        }
    }

    /// The same for a slice (header values of one record may share a buffer).
    private static func withBytes<Result>(
        _ bytes: ArraySlice<UInt8>?, _ body: ((pointer: UnsafeRawPointer, count: Int)?) -> Result
    ) -> Result {
        guard let bytes else { return body(nil) }
        return bytes.withUnsafeBytes { buffer in
            body((buffer.baseAddress ?? UnsafeRawPointer(emptyBytes), buffer.count))
        }
    }
}
