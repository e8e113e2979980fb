import Foundation
import PushModel
import PushTranslation
import Testing

/// Property test over generated payloads with a `web` section and `platform.web`: every `webpush` record
/// is a declarative message within 3993 bytes with its delivery headers, and every `webpush` dead letter
/// is for a missing title or page, or the size.
@Suite struct GeneratedWebPushTests {
    @Test func generatedWebPayloadsGiveDeclarativeMessagesOrDeadLetters() throws {
        var generator = PayloadGenerator(state: 2030)
        generator.webSections = true
        var webOutputs = 0
        for index in 0..<3_000 {
            generator.valid = index % 2 == 0
            let bytes = Array(generator.payload().utf8)
            let record = InputRecord(
                topic: "push.unified", partition: 0, offset: Int64(index), key: nil, value: bytes,
                timestampMs: 1_700_000_000_000)
            let records = Translator().translate(record, readAtMs: 0)
            #expect(records == Translator().translate(record, readAtMs: 0))
            for output in records where output.format == .webpush {
                webOutputs += 1
                #expect(output.value.count <= 3993)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(output.value)) as? [String: Any])
                #expect(object["web_push"] as? Int == 8030)
                let notification = try #require(object["notification"] as? [String: Any])
                #expect((notification["title"] as? String)?.isEmpty == false)
                let navigate = try #require(notification["navigate"] as? String).lowercased()
                #expect(navigate.hasPrefix("http://") || navigate.hasPrefix("https://"))
                #expect(Set(object.keys).isSubset(of: ["web_push", "notification", "app_badge", "mutable"]))
                #expect(output.header("webpush-ttl") != nil && output.header("webpush-urgency") != nil)
                #expect(!output.headerNames.contains { $0.hasPrefix("apns-") })
            }
            for letter in records where letter.isDeadLetter && letter.header("pushgate-format") == "webpush" {
                #expect(letter.problems.allSatisfy { ["missing_field", "payload_too_large"].contains($0.code) })
            }
        }
        #expect(webOutputs > 100, "\(webOutputs) webpush outputs")
    }
}
