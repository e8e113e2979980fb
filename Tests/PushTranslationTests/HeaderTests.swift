import PushModel
import PushTranslation
import Testing

/// SPEC sections 1 and 6: keys, header order, forwarding, dead-letter headers.
@Suite struct HeaderTests {
    static let inputHeaders = [
        RecordHeader(name: "trace-id", text: "t1"), RecordHeader(name: "PushGate-Id", text: "spoof"),
        RecordHeader(name: "APNS-priority", text: "10"), RecordHeader(name: "__Connect.Errors.stage", text: "x"),
        RecordHeader(name: "null-value", value: nil), RecordHeader(name: "trace-id", text: "t2"),
        RecordHeader(name: "bytes", value: [0xFF, 0x00]),
    ]

    @Test func outputHeadersInOrderWithForwardedFirst() {
        let json =
            #"{"id":"n1","dry_run":true,"collapse_id":"c1","message":{"body":"B"},"thread_id":"t","platform":{"android":false},"custom":{"android_icon":"i"}}"#
        let record = Harness.translate(json, headers: Self.inputHeaders).first
        #expect(
            record?.headerNames == [
                "trace-id", "null-value", "trace-id", "bytes", "pushgate-id", "pushgate-format", "pushgate-source",
                "pushgate-dry-run", "pushgate-warnings", "apns-push-type", "apns-priority", "apns-expiration",
                "apns-collapse-id",
            ])
        #expect(record?.headers[1].value == nil)
        #expect(record?.headers[3].value == [0xFF, 0x00])
        #expect(record?.header("pushgate-id") == "n1")
        #expect(record?.header("pushgate-source") == "push.unified:3:42")
        #expect(record?.header("pushgate-dry-run") == "true")
        #expect(record?.key == Array("user-1".utf8))
    }

    @Test func dryRunFalseWritesNoHeader() {
        let record = Harness.translate(#"{"dry_run":false,"message":{"body":"B"}}"#).first
        #expect(record?.header("pushgate-dry-run") == nil)
    }

    @Test func warningsJSONIsCompactInOrder() {
        let record = Harness.translate(
            #"{"platform":{"android":false},"message":{"body":"B"},"custom":{"android_sound":"s"}}"#
        ).first
        let warnings = record?.header("pushgate-warnings") ?? ""
        #expect(warnings.hasPrefix(#"[{"code":"unused_field","path":"/custom/android_sound","message":""#))
    }

    @Test func deadLetterHeadersInOrder() {
        let records = Harness.translate(#"{"id":"n9","message":{"ttl":"x","body":"B"}}"#, headers: Self.inputHeaders)
        let deadLetter = records.first
        #expect(records.count == 1)
        #expect(deadLetter?.topic == "push.dlq")
        #expect(
            deadLetter?.headerNames == [
                "trace-id", "null-value", "trace-id", "bytes", "__connect.errors.topic", "__connect.errors.partition",
                "__connect.errors.offset", "__connect.errors.stage", "__connect.errors.exception.class.name",
                "__connect.errors.exception.message", "pushgate-id", "pushgate-errors",
            ])
        #expect(deadLetter?.header("__connect.errors.topic") == "push.unified")
        #expect(deadLetter?.header("__connect.errors.partition") == "3")
        #expect(deadLetter?.header("__connect.errors.offset") == "42")
        #expect(deadLetter?.header("__connect.errors.stage") == "validate")
        #expect(deadLetter?.header("__connect.errors.exception.class.name") == "wrong_type")
        #expect(
            deadLetter?.header("__connect.errors.exception.message") == "/message/ttl: expected an integer, got string")
        #expect(deadLetter?.header("pushgate-id") == "n9")
        #expect(
            deadLetter?.header("pushgate-errors")
                == #"[{"code":"wrong_type","path":"/message/ttl","message":"expected an integer, got string"}]"#)
        #expect(deadLetter?.key == Array("user-1".utf8))
        #expect(deadLetter.map { Array($0.value) } == Array(#"{"id":"n9","message":{"ttl":"x","body":"B"}}"#.utf8))
    }

    @Test func emitDeadLetterNamesItsFormatAndOtherFormatsStillProduce() {
        let records = Harness.translate(#"{"message":{"title":"T"}}"#)
        #expect(records.formats == ["apns", "dead-letter"])
        #expect(records.last?.header("pushgate-format") == "android-expandable")
        #expect(records.last?.headerNames.last == "pushgate-errors")
    }

    @Test func severalEmitDeadLettersFollowFormatOrder() {
        let records = Harness.translate(#"{"data":{"aps":1,"alert":2},"message":{"body":"B"}}"#)
        #expect(records.formats == ["dead-letter", "dead-letter"])
        #expect(records.map { $0.header("pushgate-format") } == ["apns", "android-expandable"])
    }

    @Test func configuredTopicsAreUsed() {
        let translator = Translator(
            configuration: TranslatorConfiguration(topics: [.apns: "ios.out"], deadLetterTopic: "dead"))
        let ok = translator.translate(Harness.record(#"{"message":{"body":"B"}}"#), readAtMs: 0)
        #expect(ok.map(\.topic) == ["ios.out", "push.android.expandable"])
        let bad = translator.translate(Harness.record("[]"), readAtMs: 0)
        #expect(bad.map(\.topic) == ["dead"])
    }

    @Test func nullKeyStaysNull() {
        let translator = Translator()
        let record = InputRecord(
            topic: "in", partition: 0, offset: 1, key: nil, value: Array(#"{"message":{"body":"B"}}"#.utf8),
            timestampMs: 0)
        #expect(translator.translate(record, readAtMs: 0).allSatisfy { $0.key == nil })
    }
}

extension HeaderTests {
    @Test func thousandsOfProblemsStayWithinTheHeaderBudget() {
        let members = (0..<10_000).map { "\"k\($0)\":0" }.joined(separator: ",")
        let deadLetter = Harness.translate("{\(members),\"message\":{\"body\":\"b\"}}").first
        let errors = deadLetter?.header("pushgate-errors") ?? ""
        #expect(errors.utf8.count < 70 * 1024)
        let problems = deadLetter?.problems ?? []
        #expect(problems.count > 100 && problems.count < 10_000)
        #expect(problems.last?.message.contains("of 10000 problems are not listed") == true)
        #expect(problems.dropLast().allSatisfy { $0.code == "unknown_field" })
    }

    @Test func longPathsAndMessagesAreCutInHeaders() {
        let name = String(repeating: "x", count: 5000)
        let deadLetter = Harness.translate("{\"\(name)\":1}").first
        let problem = deadLetter?.problems.first
        #expect(problem?.path.hasSuffix("...") == true)
        #expect((problem?.path.utf8.count ?? 0) <= 1024)
        #expect((deadLetter?.header("__connect.errors.exception.message")?.utf8.count ?? 0) < 2200)
    }
}
