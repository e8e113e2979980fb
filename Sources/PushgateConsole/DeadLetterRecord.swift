import PushgateKafka

/// A dead-letter record as the index reads it: in place from librdkafka (``KafkaRecordView``) while the
/// topic is read, or from a copied ``KafkaConsumerMessage``.
protocol DeadLetterRecord {
    /// The dead-letter partition.
    var partition: Int32 { get }
    /// The dead-letter offset.
    var offset: Int64 { get }
    /// The record timestamp, when it has one.
    var timestampMs: Int64? { get }
    /// The value's length in bytes.
    var valueCount: Int { get }
    /// Calls `body` with the key's bytes, `nil` for none.
    func withKey<Result>(_ body: (UnsafeRawBufferPointer?) throws -> Result) rethrows -> Result
    /// Calls `body` with the value of the first header named `name`, `nil` when absent or null.
    func withHeader<Result>(_ name: String, _ body: (UnsafeRawBufferPointer?) throws -> Result) rethrows -> Result
}

extension KafkaRecordView: DeadLetterRecord {}

extension KafkaConsumerMessage: DeadLetterRecord {
    var valueCount: Int { value.count }

    func withKey<Result>(_ body: (UnsafeRawBufferPointer?) throws -> Result) rethrows -> Result {
        guard let key else { return try body(nil) }
        return try key.withUnsafeBytes { try body($0) }
    }

    func withHeader<Result>(_ name: String, _ body: (UnsafeRawBufferPointer?) throws -> Result) rethrows -> Result {
        guard let value = headers.first(where: { $0.name == name })?.value else { return try body(nil) }
        return try value.withUnsafeBytes { try body($0) }
    }
}

/// What the index reads of a record's headers and key, before it interns the texts.
struct DeadLetterFields {
    var stage: String?
    var format: String?
    /// The codes of `pushgate-errors`; `nil` when the record has no such header that reads as problems.
    var codes: [String]?
    var source: (topic: String, partition: Int32, offset: Int64)?
    /// The hash of the key's text, `nil` for no key.
    var keyHash: UInt64?

    init(_ record: some DeadLetterRecord) {
        func text(_ name: String) -> String? {
            record.withHeader(name) { $0.map { String(decoding: $0, as: UTF8.self) } }
        }
        codes = record.withHeader("pushgate-errors") { $0.flatMap(ProblemCodeScanner.codes) }
        if codes != nil {
            stage = text("__connect.errors.stage")
        }
        format = text("pushgate-format")
        if let topic = text("__connect.errors.topic"),
            let partition = text("__connect.errors.partition").flatMap({ Int32($0) }),
            let offset = text("__connect.errors.offset").flatMap({ Int64($0) })
        {
            source = (topic, partition, offset)
        }
        keyHash = record.withKey { key in
            key.map { bytes in
                // The key as the API shows it: bytes that are not UTF-8 become U+FFFD.
                String(validating: bytes, as: UTF8.self) != nil
                    ? DeadLetterSummary.hash(bytes)
                    : DeadLetterSummary.hash(String(decoding: bytes, as: UTF8.self).utf8)
            }
        }
    }
}
