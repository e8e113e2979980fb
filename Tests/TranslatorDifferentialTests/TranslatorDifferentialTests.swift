import LegacyTranslation
import PushModel
import PushTranslation
import Testing

/// The scanning translator against the tree-building one it replaces, on generated payloads: valid
/// ones covering every field, and byte mutations of them. Every record, report and warning must be
/// identical.
@Suite struct TranslatorDifferentialTests {
    static let mutationAlphabet: [UInt8] = Array(##"{}[]":,0123456789.-+eE\"ntrufalsu/~#"##.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xA9, 0xED, 0xF0, 0xFF, 0x20]

    struct Outcome: Equatable {
        var records: [OutputRecord]
        var reports: [String]
        var warnings: [String]
    }

    static func current(_ record: InputRecord, _ configuration: PushTranslation.TranslatorConfiguration) -> Outcome {
        let translation = PushTranslation.Translator(configuration: configuration).translation(of: record, readAtMs: 1_700_000_000_123)
        return Outcome(
            records: translation.records,
            reports: translation.deadLetters.map { "\($0.stage.rawValue) \($0.format?.rawValue ?? "-") \($0.id) \($0.source) \($0.errors.map { "\($0.code.rawValue)|\($0.path)|\($0.message)" })" },
            warnings: translation.warnings.map { "\($0.code.rawValue)|\($0.path)|\($0.message)" })
    }

    static func legacy(_ record: InputRecord, _ configuration: PushTranslation.TranslatorConfiguration) -> Outcome {
        let legacyConfiguration = LegacyTranslation.TranslatorConfiguration(
            lenient: configuration.lenient, maxPayloadBytes: configuration.maxPayloadBytes, topics: configuration.topics,
            deadLetterTopic: configuration.deadLetterTopic)
        let translation = LegacyTranslation.Translator(configuration: legacyConfiguration).translation(of: record, readAtMs: 1_700_000_000_123)
        return Outcome(
            records: translation.records,
            reports: translation.deadLetters.map { "\($0.stage.rawValue) \($0.format?.rawValue ?? "-") \($0.id) \($0.source) \($0.errors.map { "\($0.code.rawValue)|\($0.path)|\($0.message)" })" },
            warnings: translation.warnings.map { "\($0.code.rawValue)|\($0.path)|\($0.message)" })
    }

    /// 4 × 25,000 = 100,000 payloads: per batch half generated valid, a quarter with every kind of
    /// wrong value, a quarter of those mutated byte by byte.
    @Test(arguments: 0..<4)
    func scanningTranslatorMatchesTheTreeTranslator(_ batch: Int) {
        var generator = PayloadGenerator(state: UInt64(batch) &* 1_000_003 &+ 17)
        var mismatches = 0
        var deadLetters = 0
        var outputs = 0
        for index in 0..<25_000 {
            generator.valid = index % 4 == 0 || index % 4 == 2
            var bytes = Array(generator.payload().utf8)
            if index % 4 == 3 {
                for _ in 0..<(1 + generator.below(4)) {
                    let position = generator.below(bytes.count)
                    switch generator.below(3) {
                    case 0: bytes[position] = Self.mutationAlphabet[generator.below(Self.mutationAlphabet.count)]
                    case 1: bytes.remove(at: position)
                    default: bytes.insert(Self.mutationAlphabet[generator.below(Self.mutationAlphabet.count)], at: position)
                    }
                    if bytes.isEmpty { bytes = [0x7B] }
                }
            }
            let headers: [RecordHeader] = generator.chance(30)
                ? [RecordHeader(name: "trace", text: "t\(index)"), RecordHeader(name: generator.pick(["pushgate-id", "APNS-x", "keep"]), text: "v")]
                : []
            let record = InputRecord(
                topic: generator.pick(["push.unified", "in"]), partition: Int32(generator.below(8)), offset: Int64(index),
                key: generator.chance(50) ? Array("user-\(index)".utf8) : nil, value: bytes, headers: headers,
                timestampMs: generator.chance(80) ? 1_700_000_000_000 + Int64(index) : nil)
            let configuration = PushTranslation.TranslatorConfiguration(
                lenient: generator.chance(20), maxPayloadBytes: generator.chance(3) ? 300 : 1_048_576)
            let new = Self.current(record, configuration)
            let old = Self.legacy(record, configuration)
            if new != old {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("payload differs: \(String(decoding: bytes, as: UTF8.self))\nnew: \(new)\nold: \(old)")
                }
            }
            deadLetters += old.records.filter(\.isDeadLetter).count
            outputs += old.records.filter { !$0.isDeadLetter }.count
        }
        #expect(mismatches == 0)
        // The mix must exercise both paths.
        #expect(outputs > 8_000)
        #expect(deadLetters > 10_000)
        print("batch \(batch): 25000 payloads, \(outputs) outputs, \(deadLetters) dead letters, \(mismatches) mismatches")
    }
}
