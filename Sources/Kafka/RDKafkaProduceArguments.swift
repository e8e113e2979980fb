import CRdKafka

/// Builds the `rd_kafka_vu_t` arguments of one `rd_kafka_produceva` call pointing into the record's own
/// storage, borrowed for the call: librdkafka copies the key and value (`RD_KAFKA_MSG_F_COPY`) and the
/// headers during the call, so nothing is copied beforehand. The argument array itself lives on the
/// stack.
enum RDKafkaProduceArguments {
    /// A byte that stands for an empty key, value or header value, so that empty stays empty rather
    /// than becoming null (an empty array may have no storage).
    nonisolated(unsafe) private static let emptyBytes = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

    /// Calls `body` with the arguments of `record` whose opaque is `opaque`; the pointers are only
    /// valid inside `body`.
    static func withArguments(
        _ record: some KafkaProducible, opaque: UnsafeMutableRawPointer,
        _ body: (UnsafeBufferPointer<rd_kafka_vu_t>) -> OpaquePointer?
    ) -> OpaquePointer? {
        let headerCount = record.headerCount
        return withUnsafeTemporaryAllocation(of: rd_kafka_vu_t.self, capacity: 7 + headerCount) { storage in
            var count = 0
            func append(_ entry: rd_kafka_vu_t) {
                storage.initializeElement(at: count, to: entry)
                count += 1
            }
            return record.topic.withCString { topicName in
                var topic = rd_kafka_vu_t()
                topic.vtype = RD_KAFKA_VTYPE_TOPIC
                topic.u.cstr = topicName
                append(topic)
                if let partition = record.partition {
                    var entry = rd_kafka_vu_t()
                    entry.vtype = RD_KAFKA_VTYPE_PARTITION
                    entry.u.i32 = partition
                    append(entry)
                }
                var flags = rd_kafka_vu_t()
                flags.vtype = RD_KAFKA_VTYPE_MSGFLAGS
                flags.u.i = RD_KAFKA_MSG_F_COPY
                append(flags)
                var context = rd_kafka_vu_t()
                context.vtype = RD_KAFKA_VTYPE_OPAQUE
                context.u.ptr = opaque
                append(context)
                if let timestamp = record.timestampMs {
                    var entry = rd_kafka_vu_t()
                    entry.vtype = RD_KAFKA_VTYPE_TIMESTAMP
                    entry.u.i64 = timestamp
                    append(entry)
                }
                return withBytes(record.key) { key in
                    if let key {
                        var entry = rd_kafka_vu_t()
                        entry.vtype = RD_KAFKA_VTYPE_KEY
                        entry.u.mem.ptr = UnsafeMutableRawPointer(mutating: key.pointer)
                        entry.u.mem.size = key.count
                        append(entry)
                    }
                    return withBytes(record.value) { value in
                        var entry = rd_kafka_vu_t()
                        entry.vtype = RD_KAFKA_VTYPE_VALUE
                        entry.u.mem.ptr = value.map { UnsafeMutableRawPointer(mutating: $0.pointer) }
                        entry.u.mem.size = value?.count ?? 0
                        append(entry)
                        let fixed = count
                        return withHeaders(of: record, from: 0, count: headerCount, into: storage, at: fixed) { end in
                            body(UnsafeBufferPointer(rebasing: storage[..<end]))
                        }
                    }
                }
            }
        }
    }

    /// Writes one header entry per header from `index` on, in order, each pointing into its name and
    /// value (borrowed for the nested calls), then calls `body` with the count of entries written.
    private static func withHeaders(
        of record: some KafkaProducible, from index: Int, count: Int, into storage: UnsafeMutableBufferPointer<rd_kafka_vu_t>,
        at position: Int, _ body: (Int) -> OpaquePointer?
    ) -> OpaquePointer? {
        guard index < count else { return body(position) }
        let header = record.header(at: index)
        return header.name.withCString { name in
            withBytes(header.value) { bytes in
                var entry = rd_kafka_vu_t()
                entry.vtype = RD_KAFKA_VTYPE_HEADER
                entry.u.header.name = name
                entry.u.header.val = bytes?.pointer
                entry.u.header.size = bytes?.count ?? 0
                storage.initializeElement(at: position, to: entry)
                return withHeaders(of: record, from: index + 1, count: count, into: storage, at: position + 1, body)
            }
        }
    }

    /// Calls `body` with a non-null pointer to `bytes` and their count, or `nil` for `nil`.
    private static func withBytes(
        _ bytes: [UInt8]?, _ body: ((pointer: UnsafeRawPointer, count: Int)?) -> OpaquePointer?
    ) -> OpaquePointer? {
        guard let bytes else { return body(nil) }
        return bytes.withUnsafeBytes { body(($0.baseAddress ?? UnsafeRawPointer(emptyBytes), $0.count)) }
    }

    /// The same for a slice (header values of one record may share a buffer).
    private static func withBytes(
        _ bytes: ArraySlice<UInt8>?, _ body: ((pointer: UnsafeRawPointer, count: Int)?) -> OpaquePointer?
    ) -> OpaquePointer? {
        guard let bytes else { return body(nil) }
        return bytes.withUnsafeBytes { body(($0.baseAddress ?? UnsafeRawPointer(emptyBytes), $0.count)) }
    }
}
