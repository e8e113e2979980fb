import PushModel
import PushTranslation
import PushWorker
import Testing

/// A dead letter too large to write keeps its key and headers and says its value was omitted.
@Suite struct RecordLimitTests {
    private func record(_ bytes: Int) -> InputRecord {
        InputRecord(
            topic: "push.unified", partition: 1, offset: 9, key: Array("k".utf8),
            value: [UInt8](repeating: UInt8(ascii: "["), count: bytes), headers: [RecordHeader(name: "t", text: "1")],
            timestampMs: 0)
    }

    @Test func oversizedDeadLetterLosesOnlyItsValue() throws {
        let translator = Translator(configuration: TranslatorConfiguration(maxPayloadBytes: 1000))
        let deadLetter = try #require(translator.translate(record(5000), readAtMs: 0).first)
        let fitted = deadLetter.fitting(recordLimit: 2000)
        #expect(fitted.value.isEmpty)
        #expect(fitted.key == deadLetter.key)
        #expect(Array(fitted.headers.dropLast()) == deadLetter.headers)
        #expect(fitted.headers.last == RecordHeader(name: "pushgate-value-omitted", text: "5000"))
    }

    @Test func recordsWithinTheLimitAreUnchanged() throws {
        let translator = Translator(configuration: TranslatorConfiguration(maxPayloadBytes: 1000))
        let deadLetter = try #require(translator.translate(record(500), readAtMs: 0).first)
        #expect(deadLetter.fitting(recordLimit: 2000) == deadLetter)
        let output = try #require(
            translator.translate(
                InputRecord(
                    topic: "t", partition: 0, offset: 0, key: nil, value: Array(#"{"message":{"body":"b"}}"#.utf8),
                    timestampMs: 0), readAtMs: 0
            ).first)
        #expect(output.fitting(recordLimit: 10) == output, "only dead letters are ever cut")
    }
}
