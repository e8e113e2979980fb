import CRdKafka

/// Builds the `rd_kafka_vu_t` arguments of one `rd_kafka_produceva` call pointing into the record's own
/// storage, borrowed for the call: librdkafka copies the key and value (`RD_KAFKA_MSG_F_COPY`) during
/// the call, so nothing is copied beforehand. The headers are added to a librdkafka header list here,
/// each name and value given with its length (no C string is made), and the list is handed over with
/// the record. The argument array itself lives on the stack.
@usableFromInline
enum RDKafkaProduceArguments {
    /// A byte that stands for an empty key, value, header name or header value, so that empty stays
    /// empty rather than becoming null (an empty array may have no storage).
    ///
    /// `nonisolated(unsafe)` because a pointer is not `Sendable`; sharing this one between threads is
    /// safe because nothing is ever written through it or read through it: it is given to librdkafka
    /// only with a length of 0 (librdkafka copies 0 bytes from it), and never freed, so its address
    /// stays valid. The pointer itself is written once, by Swift's lazy initialization of a global
    /// (`swift_once`, whose write happens before any thread's first read of it), and never changes.
    @usableFromInline
    nonisolated(unsafe) static let emptyBytes = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

    /// The most entries one call has: topic, partition, flags, opaque, timestamp, key, value, headers.
    @usableFromInline
    static let maxEntries = 8

    /// Calls `body` with the arguments of `record` whose opaque is `opaque`; the pointers are only
    /// valid inside `body`, which returns the error of `rd_kafka_produceva`. The header list belongs
    /// to librdkafka once the call succeeds; it is destroyed here when it fails. The record's topic is
    /// given as `topicHandle`, its librdkafka object, when there is one, else by name.
    @inlinable
    static func withArguments(
        _ record: some KafkaProducible, topicHandle: OpaquePointer?, opaque: UnsafeMutableRawPointer,
        _ body: (UnsafeBufferPointer<rd_kafka_vu_t>) -> OpaquePointer?
    ) -> OpaquePointer? {
        let headers = makeHeaders(of: record)
        // No mutable state is captured by the closures below (a captured counter would be boxed and
        // checked for exclusive access at run time, per record).
        let failure = withUnsafeTemporaryAllocation(of: rd_kafka_vu_t.self, capacity: maxEntries) { storage in
            withTopic(record.topic, handle: topicHandle) { topic in
                let fixed = writeFixedEntries(
                    of: record, topic: topic, headers: headers, opaque: opaque, into: storage)
                return record.withKeyAndValue { key, value in
                    var count = fixed
                    if let key {
                        storage.initializeElement(at: count, to: memoryEntry(RD_KAFKA_VTYPE_KEY, nonNull(key)))
                        count += 1
                    }
                    // A null value is no value entry at all.
                    if !record.valueIsNull {
                        storage.initializeElement(at: count, to: memoryEntry(RD_KAFKA_VTYPE_VALUE, nonNull(value)))
                        count += 1
                    }
                    return body(UnsafeBufferPointer(rebasing: storage[..<count]))
                }
            }
        }
        if failure != nil, let headers { rd_kafka_headers_destroy(headers) }
        return failure
    }

    /// Writes the entries before key and value (topic, partition, flags, opaque, timestamp, headers)
    /// at the start of `storage`; returns how many.
    @inlinable
    static func writeFixedEntries(
        of record: some KafkaProducible, topic: rd_kafka_vu_t, headers: OpaquePointer?,
        opaque: UnsafeMutableRawPointer, into storage: UnsafeMutableBufferPointer<rd_kafka_vu_t>
    ) -> Int {
        var count = 0
        put(topic, into: storage, at: &count)
        if let partition = record.partition {
            put(entry(RD_KAFKA_VTYPE_PARTITION) { $0.u.i32 = partition }, into: storage, at: &count)
        }
        put(entry(RD_KAFKA_VTYPE_MSGFLAGS) { $0.u.i = RD_KAFKA_MSG_F_COPY }, into: storage, at: &count)
        put(entry(RD_KAFKA_VTYPE_OPAQUE) { $0.u.ptr = opaque }, into: storage, at: &count)
        if let timestamp = record.timestampMs {
            put(entry(RD_KAFKA_VTYPE_TIMESTAMP) { $0.u.i64 = timestamp }, into: storage, at: &count)
        }
        if let headers {
            put(entry(RD_KAFKA_VTYPE_HEADERS) { $0.u.headers = headers }, into: storage, at: &count)
        }
        return count
    }

    /// An entry of `type`, its value set by `fill`.
    @inlinable @inline(__always)
    static func entry(_ type: rd_kafka_vtype_t, _ fill: (inout rd_kafka_vu_t) -> Void) -> rd_kafka_vu_t {
        var entry = rd_kafka_vu_t()
        entry.vtype = type
        fill(&entry)
        return entry
    }

    /// Writes `entry` at `count` and counts it.
    @inlinable @inline(__always)
    static func put(
        _ entry: rd_kafka_vu_t, into storage: UnsafeMutableBufferPointer<rd_kafka_vu_t>, at count: inout Int
    ) {
        storage.initializeElement(at: count, to: entry)
        count += 1
    }

    /// A key or value entry pointing at `bytes`.
    @usableFromInline
    static func memoryEntry(_ type: rd_kafka_vtype_t, _ bytes: UnsafeRawBufferPointer) -> rd_kafka_vu_t {
        entry(type) {
            $0.u.mem.ptr = bytes.baseAddress.map(UnsafeMutableRawPointer.init(mutating:))
            $0.u.mem.size = bytes.count
        }
    }

    /// Calls `body` with the topic argument: the object `handle`, else `name` as a C string.
    @usableFromInline
    static func withTopic(
        _ name: String, handle: OpaquePointer?, _ body: (rd_kafka_vu_t) -> OpaquePointer?
    ) -> OpaquePointer? {
        var topic = rd_kafka_vu_t()
        if let handle {
            topic.vtype = RD_KAFKA_VTYPE_RKT
            topic.u.rkt = handle
            return body(topic)
        }
        return name.withCString { topicName in
            topic.vtype = RD_KAFKA_VTYPE_TOPIC
            topic.u.cstr = topicName
            return body(topic)
        }
    }

    /// The record's headers as a librdkafka list, `nil` when it has none.
    @inlinable
    static func makeHeaders(of record: some KafkaProducible) -> OpaquePointer? {
        let count = record.headerCount
        guard count > 0, let headers = rd_kafka_headers_new(count) else { return nil }
        record.forEachHeader { name, value in
            let namePointer = (name.baseAddress ?? UnsafeRawPointer(emptyBytes)).assumingMemoryBound(to: CChar.self)
            _ = rd_kafka_header_add(
                headers, namePointer, name.count, value.map { $0.baseAddress ?? UnsafeRawPointer(emptyBytes) },
                value?.count ?? 0)
        }
        return headers
    }

    /// `bytes`, or, when they have no storage (empty), empty bytes that are not null.
    @usableFromInline
    static func nonNull(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        bytes.baseAddress == nil ? UnsafeRawBufferPointer(start: emptyBytes, count: 0) : bytes
    }
}
