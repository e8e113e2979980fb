import CRdKafka

/// A record read by a ``KafkaConsumer`` with a record handler, read in place from librdkafka's message:
/// valid only during the handler's call, nothing is copied unless asked for.
///
/// The fast way to read a topic whole when only part of each record is kept: no array of headers, no
/// copy of the value.
public struct KafkaRecordView {
    @usableFromInline
    let message: UnsafePointer<rd_kafka_message_t>
    /// The topic the record was read from.
    public let topic: String

    init(_ message: UnsafePointer<rd_kafka_message_t>, topic: String) {
        self.message = message
        self.topic = topic
    }

    /// The partition the record was read from.
    public var partition: Int32 { message.pointee.partition }

    /// The record's offset.
    public var offset: Int64 { message.pointee.offset }

    /// The record timestamp in milliseconds since the epoch, `nil` when it has none.
    public var timestampMs: Int64? {
        var type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let timestamp = rd_kafka_message_timestamp(message, &type)
        return timestamp >= 0 ? timestamp : nil
    }

    /// Whether the value is null (a tombstone), not empty.
    public var valueIsNull: Bool { message.pointee.payload == nil }

    /// The value's length in bytes (0 for a null value).
    public var valueCount: Int { message.pointee.payload == nil ? 0 : message.pointee.len }

    /// Calls `body` with the key's bytes (`nil` when the record has none), in place.
    @inlinable
    public func withKey<Result>(_ body: (UnsafeRawBufferPointer?) throws -> Result) rethrows -> Result {
        let raw = message.pointee
        return try body(raw.key.map { UnsafeRawBufferPointer(start: $0, count: raw.key_len) })
    }

    /// Calls `body` with the value's bytes (empty for a null value), in place.
    @inlinable
    public func withValue<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let raw = message.pointee
        return try body(UnsafeRawBufferPointer(start: raw.payload, count: raw.payload == nil ? 0 : raw.len))
    }

    /// Calls `body` with the value of the first header named `name`, in place: `nil` when the record has
    /// no such header or its value is null.
    public func withHeader<Result>(_ name: String, _ body: (UnsafeRawBufferPointer?) throws -> Result) rethrows
        -> Result
    {
        var list: OpaquePointer?
        guard rd_kafka_message_headers(message, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else {
            return try body(nil)
        }
        var value: UnsafeRawPointer?
        var size = 0
        guard rd_kafka_header_get(list, 0, name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR, let value else {
            return try body(nil)
        }
        return try body(UnsafeRawBufferPointer(start: value, count: size))
    }

    /// How many headers the record has.
    public var headerCount: Int { RDKafkaMessageHeaders.count(of: message) }

    /// Calls `body` with each header, in record order: its name and its value's bytes in place (`nil`
    /// for a null value), valid only during the call. Not generic, so that a caller building its own
    /// list pays no generic dispatch per record.
    public func forEachHeader(_ body: (_ name: String, _ value: UnsafeRawBufferPointer?) -> Void) {
        RDKafkaMessageHeaders.forEach(of: message, body)
    }

    /// A copy of the whole record, read under `assignmentEpoch`.
    public func copy(assignmentEpoch: UInt64 = 0) -> KafkaConsumerMessage {
        KafkaConsumerMessage(message, topic: topic, assignmentEpoch: assignmentEpoch)
    }
}
