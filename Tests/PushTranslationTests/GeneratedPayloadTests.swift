import Foundation
import PushModel
import PushTranslation
import Testing

/// Property tests over generated payloads covering every field (the generator that drove the
/// 100,000-payload differential test of the scanning translator against the tree translator it replaced).
@Suite struct GeneratedPayloadTests {
    @Test func generatedPayloadsGiveValidOutputsOrDeadLettersDeterministically() throws {
        var generator = PayloadGenerator(state: 2026)
        var outputs = 0
        for index in 0..<4_000 {
            generator.valid = index % 2 == 0
            let bytes = Array(generator.payload().utf8)
            let record = InputRecord(
                topic: "push.unified", partition: 0, offset: Int64(index), key: nil, value: bytes,
                timestampMs: 1_700_000_000_000)
            let translator = Translator()
            let first = translator.translate(record, readAtMs: 0)
            #expect(first == translator.translate(record, readAtMs: 0))
            #expect(!first.isEmpty)
            for output in first {
                if output.isDeadLetter {
                    #expect(Array(output.value) == bytes)
                    #expect(output.headers.contains { $0.name == "pushgate-errors" })
                } else {
                    outputs += 1
                    #expect(output.value.count <= 4096)
                    // Every output is a JSON object Foundation reads.
                    let object = try JSONSerialization.jsonObject(with: Data(output.value))
                    #expect(object is [String: Any])
                }
            }
        }
        #expect(outputs > 1_000)
    }
}
