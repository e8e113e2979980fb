/// A record as a producer reads it. ``KafkaProducerMessage`` is one; records of other modules conform
/// so they are handed to librdkafka in place (librdkafka copies them during the call), with no
/// conversion. The requirements are concrete types so that producing one costs no generic dispatch.
public protocol KafkaProducible {
    /// The topic to write to.
    var topic: String { get }
    /// The partition; `nil` lets the partitioner choose from the key.
    var partition: Int32? { get }
    /// The key; `nil` for none.
    var key: [UInt8]? { get }
    /// The timestamp in milliseconds since the epoch; `nil` lets the producer use the current time.
    var timestampMs: Int64? { get }
    /// How many headers the record has.
    var headerCount: Int { get }
    /// Calls `body` with each header in order: the name's UTF-8 bytes and the value's bytes (`nil` for a
    /// null value), both valid only during the call.
    func forEachHeader(_ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) -> Void)
    /// Calls `body` with the key's bytes (`nil` for none) and the value's bytes, both borrowed in place
    /// for the call (a record hands out no copy of them, so none is retained and released).
    func withKeyAndValue<Result>(
        _ body: (_ key: UnsafeRawBufferPointer?, _ value: UnsafeRawBufferPointer) -> Result
    ) -> Result
    /// Whether the value is written as null (a tombstone) rather than as its bytes, which are then empty.
    var valueIsNull: Bool { get }
}

extension KafkaProducible {
    /// By default a record's value is its bytes, never null.
    public var valueIsNull: Bool { false }
}

extension KafkaProducerMessage: KafkaProducible {
    /// Calls `body` with the key's and value's bytes.
    public func withKeyAndValue<Result>(
        _ body: (_ key: UnsafeRawBufferPointer?, _ value: UnsafeRawBufferPointer) -> Result
    ) -> Result {
        if let keyed = key?.withUnsafeBytes({ key in value.withUnsafeBytes { body(key, $0) } }) { return keyed }
        return value.withUnsafeBytes { body(nil, $0) }
    }

    /// How many headers the record has.
    public var headerCount: Int { headers.count }

    /// Calls `body` with each header's name and value bytes, in order.
    public func forEachHeader(_ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) -> Void) {
        for header in headers { KafkaHeaderBytes.with(name: header.name, value: header.value, body) }
    }
}

/// Borrows a header's name and value as raw bytes.
public enum KafkaHeaderBytes {
    /// Calls `body` with the UTF-8 bytes of `name` and the bytes of `value` (`nil` for null), borrowed
    /// for the call.
    @inlinable
    public static func with(
        name: String, value: ArraySlice<UInt8>?,
        _ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) -> Void
    ) {
        func withValue(_ nameBytes: UnsafeRawBufferPointer) {
            guard let value else { return body(nameBytes, nil) }
            value.withUnsafeBytes { body(nameBytes, $0) }
        }
        let done: Void? = name.utf8.withContiguousStorageIfAvailable { withValue(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(name.utf8).withUnsafeBytes { withValue($0) } }
    }
}
