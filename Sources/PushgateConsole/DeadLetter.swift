import Foundation
import PushgateKafka

/// One record of the dead-letter topic as the console shows it: where it is, what pushgate wrote in its
/// headers (stage, format, errors, the source record) and its value. Made from the record read back
/// from Kafka (``LetterReader``) when it is shown or re-driven; the index keeps only a summary of it.
///
/// A record pushgate did not write (no readable `pushgate-errors`) is shown too, with no stage and no
/// errors.
public struct DeadLetter: Sendable {
    /// One problem of `pushgate-errors`.
    public struct Problem: Sendable, Codable, Equatable {
        /// The error code (`unknown_field`, ...).
        public var code: String
        /// The JSON Pointer into the payload.
        public var path: String
        /// The message.
        public var message: String
    }

    /// The input record a dead letter was made from (`__connect.errors.topic`, `.partition`, `.offset`).
    public struct Source: Sendable, Equatable, Hashable {
        /// The input topic.
        public var topic: String
        /// The input partition.
        public var partition: Int32
        /// The input offset.
        public var offset: Int64

        /// `TOPIC:PARTITION:OFFSET`, as `pushgate-source` and `pushgate-redriven-from` name a record.
        public var name: String { "\(topic):\(partition):\(offset)" }
    }

    /// The dead-letter partition.
    public var partition: Int32
    /// The dead-letter offset.
    public var offset: Int64
    /// The record timestamp (ms since the epoch), when it has one.
    public var timestampMs: Int64?
    /// The key, unchanged.
    public var key: [UInt8]?
    /// Every header, in record order.
    public var headers: [KafkaHeader]
    /// The value, or its start (``valueIsCut``).
    public var value: [UInt8]
    /// The value's full length in bytes.
    public var valueBytes: Int
    /// Whether the value is null (the dead letter of a tombstone), not empty.
    public var valueIsNull: Bool
    /// `__connect.errors.stage` (`parse`, `validate`, `emit`); `nil` for a record pushgate did not write.
    public var stage: String?
    /// `pushgate-format` (stage `emit` only).
    public var format: String?
    /// `pushgate-errors`, parsed; empty for a record pushgate did not write.
    public var errors: [Problem]
    /// The input record it was made from, when its headers say.
    public var source: Source?
    /// Whether the record carries a `pushgate-errors` header that reads as a list of problems.
    public var writtenByPushgate: Bool
    /// The distinct codes of ``errors``.
    public var codes: Set<String>

    /// Whether ``value`` holds only the start of the record's value.
    public var valueIsCut: Bool { value.count < valueBytes }
    /// Whether the value is not UTF-8 text (for a value kept cut, its start is not: the cut may split the
    /// last character, so up to three bytes at the end are left out of the check).
    public var valueIsBinary: Bool {
        guard valueIsCut else { return String(validating: value, as: UTF8.self) == nil }
        return !(0...3).contains { String(validating: value.dropLast($0), as: UTF8.self) != nil }
    }

    /// Reads a dead-letter record; `keep` is how many bytes of its value are kept.
    init(_ message: KafkaConsumerMessage, keep: Int = .max) {
        partition = message.partition
        offset = message.offset
        timestampMs = message.timestampMs
        key = message.key
        headers = message.headers
        valueBytes = message.value.count
        valueIsNull = message.valueIsNull
        value = message.value.count > keep ? Array(message.value.prefix(keep)) : message.value
        stage = Self.text(of: "__connect.errors.stage", in: message.headers)
        format = Self.text(of: "pushgate-format", in: message.headers)
        let parsed = Self.text(of: "pushgate-errors", in: message.headers).flatMap {
            try? JSONDecoder().decode([Problem].self, from: Data($0.utf8))
        }
        errors = parsed ?? []
        writtenByPushgate = parsed != nil
        if !writtenByPushgate { stage = nil }
        codes = Set(errors.map(\.code))
        if let topic = Self.text(of: "__connect.errors.topic", in: message.headers),
            let partition = Self.text(of: "__connect.errors.partition", in: message.headers).flatMap({ Int32($0) }),
            let offset = Self.text(of: "__connect.errors.offset", in: message.headers).flatMap({ Int64($0) })
        {
            source = Source(topic: topic, partition: partition, offset: offset)
        }
    }

    /// The value of header `name` as text (the first one of that name).
    static func text(of name: String, in headers: [KafkaHeader]) -> String? {
        headers.first { $0.name == name }?.value.map { String(decoding: $0, as: UTF8.self) }
    }
}
