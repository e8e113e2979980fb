import PushModel
import PushTranslation
import Testing

/// SPEC section 2 and 9: the parse stage, in its order, one error with path "".
@Suite struct ParseStageTests {
    private func parseError(_ bytes: [UInt8], max: Int = 1_048_576) -> Problem? {
        let records = Harness.translate(bytes: bytes, maxPayloadBytes: max)
        guard records.count == 1, let deadLetter = records.first, deadLetter.isDeadLetter,
            deadLetter.header("__connect.errors.stage") == "parse"
        else { return nil }
        #expect(deadLetter.problems.count == 1)
        return deadLetter.problems.first
    }

    /// A tombstone (a null value) is not a payload; its dead letter keeps the null, and an empty value
    /// stays an empty one.
    @Test func aTombstonesDeadLetterKeepsTheNullValue() throws {
        let translator = Translator()
        for isNull in [true, false] {
            let input = InputRecord(
                topic: "push.unified", partition: 0, offset: 9, key: Array("k".utf8), value: [], timestampMs: nil,
                valueIsNull: isNull)
            let records = translator.translate(input, readAtMs: 0)
            let letter = try #require(records.first)
            #expect(records.count == 1 && letter.isDeadLetter)
            #expect(letter.valueIsNull == isNull)
            #expect(letter.value.isEmpty)
        }
    }

    @Test func payloadOverTheLimitIsTooLarge() {
        let problem = parseError(Array(#"{"message":{"body":"hello"}}"#.utf8), max: 10)
        #expect(problem?.code == "too_large")
        #expect(problem?.path == "")
        #expect(problem?.message.contains("10") == true)
    }

    @Test func payloadAtTheLimitIsAccepted() {
        let json = Array(#"{"message":{"body":"hi"}}"#.utf8)
        let records = Harness.translate(bytes: json, maxPayloadBytes: json.count)
        #expect(records.deadLetters.isEmpty)
    }

    @Test func tenMegabyteBodyIsTooLargeBeforeAnythingElse() {
        var bytes = [UInt8](repeating: 0xFF, count: 10 * 1024 * 1024)
        bytes[0] = UInt8(ascii: "[")
        #expect(parseError(bytes)?.code == "too_large")
    }

    @Test(
        arguments: [
            [0xFF], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3],
            [0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],
        ] as [[UInt8]])
    func invalidUTF8IsRefusedWithItsOffset(_ bad: [UInt8]) {
        let bytes = Array(#"{"message":{"body":""#.utf8) + bad + Array(#""}}"#.utf8)
        let problem = parseError(bytes)
        #expect(problem?.code == "invalid_utf8")
        #expect(problem?.message.contains("byte 20") == true)
    }

    @Test func invalidUTF8ComesBeforeInvalidJSON() {
        #expect(parseError([UInt8(ascii: "x"), 0xFF])?.code == "invalid_utf8")
    }

    @Test(arguments: [
        "", " ", "{", "{\"a\":}", "{\"a\" 1}", "{'a':1}", "{\"a\":1,}", "[1,]", "{\"a\":01}", "{\"a\":1.}",
        "{\"a\":.5}", "{\"a\":+1}", "{\"a\":1e}", "{\"a\":tru}", "{\"a\":\"\\x\"}", "{\"a\":\"\t\"}",
        "{\"a\":NaN}", "{\"a\":1} x", "{\"a\":1}{}", "\u{FEFF}{}", "{\"a\":\"unterminated}",
    ])
    func malformedJSONIsInvalidJSON(_ text: String) {
        #expect(parseError(Array(text.utf8))?.code == "invalid_json")
    }

    @Test func trailingDataNamesItsOffset() {
        let problem = parseError(Array("{} []".utf8))
        #expect(problem?.code == "invalid_json")
        #expect(problem?.message.contains("byte 3") == true)
    }

    @Test(arguments: [
        #"{"id":"a","id":"b"}"#, #"{"data":{"x":{"y":1,"y":2}}}"#, #"{"data":{"list":[{"k":1,"k":1}]}}"#,
        #"{"message":{"title":"a","ti\u0074le":"b"}}"#,
    ])
    func duplicateMemberNamesAtAnyDepthAreInvalidJSON(_ text: String) {
        let problem = parseError(Array(text.utf8))
        #expect(problem?.code == "invalid_json")
        #expect(problem?.message.contains("duplicate") == true)
    }

    @Test func duplicatesAreFoundInLargeObjects() {
        let members = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(parseError(Array("{\"data\":{\(members),\"k17\":0}}".utf8))?.code == "invalid_json")
        #expect(parseError(Array("{\"data\":{\(members)},\"message\":{\"body\":\"x\"}}".utf8)) == nil)
    }

    @Test(arguments: [#""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800x""#, #""\udbff\udbff""#])
    func unpairedSurrogateEscapesAreInvalidJSON(_ string: String) {
        let problem = parseError(Array("{\"data\":{\"s\":\(string)}}".utf8))
        #expect(problem?.code == "invalid_json")
        #expect(problem?.message.contains("surrogate") == true || problem?.message.contains("escape") == true)
    }

    @Test func pairedSurrogateEscapesDecode() {
        let records = Harness.translate(#"{"message":{"body":"\ud83d\ude00"},"platform":{"android":false}}"#)
        #expect(records.output(.apns)?.text.contains("\"alert\":\"😀\"") == true)
    }

    private func nested(_ depth: Int, innermost: String = "1") -> [UInt8] {
        // The payload is depth 1, data depth 2, each array one more; the innermost value is at `depth`.
        Array(
            ("{\"message\":{\"body\":\"x\"},\"data\":{\"n\":" + String(repeating: "[", count: depth - 3) + innermost
                + String(repeating: "]", count: depth - 3) + "}}").utf8)
    }

    @Test func valueAtDepth64IsAccepted() {
        let records = Harness.translate(bytes: nested(64))
        #expect(records.deadLetters.isEmpty)
        #expect(records.count == 2)
    }

    @Test func valueAtDepth65IsTooDeep() {
        #expect(parseError(nested(65))?.code == "too_deep")
    }

    @Test func hundredThousandDeepNestingIsTooDeepQuickly() {
        let bytes = Array(String(repeating: "[", count: 100_000).utf8)
        let problem = parseError(bytes)
        #expect(problem?.code == "too_deep")
        #expect(problem?.message.contains("byte 64") == true)
    }

    @Test func invalidJSONBeforeTheDepthLimitWins() {
        let bytes = Array(("[1,," + String(repeating: "[", count: 100)).utf8)
        #expect(parseError(bytes)?.code == "invalid_json")
    }

    @Test(arguments: ["[]", "\"text\"", "42", "true", "null", " [1,2] "])
    func topLevelNonObjectIsNotAnObject(_ text: String) {
        #expect(parseError(Array(text.utf8))?.code == "not_an_object")
    }

    @Test func whitespaceAroundTheObjectIsFine() {
        #expect(parseError(Array(" \n\t{\"message\":{\"body\":\"x\"}}\r\n ".utf8)) == nil)
    }

    @Test func parseDeadLetterKeepsTheExactBytes() {
        let bytes: [UInt8] = [0x7B, 0xFF, 0x7D]
        let records = Harness.translate(bytes: bytes)
        #expect(records.first.map { Array($0.value) } == bytes)
        #expect(records.first?.header("__connect.errors.exception.message") == ": invalid UTF-8 at byte 1")
    }
}

extension ParseStageTests {
    @Test func canonicallyEquivalentNamesAreNotDuplicates() {
        // "é" precomposed (U+00E9) and decomposed (e + U+0301) are different member names in JSON.
        let records = Harness.translate(#"{"message":{"body":"b"},"data":{"\u00e9":1,"e\u0301":2}}"#)
        #expect(records.deadLetters.isEmpty)
        #expect(records.output(.apns)?.text == "{\"aps\":{\"alert\":\"b\"},\"é\":1,\"e\u{0301}\":2}")
    }
}

/// The string scanner reads eight bytes at a time and goes straight to the first byte that needs a look:
/// each kind of such byte, at every position of a word, must be found where it is.
extension ParseStageTests {
    private static let prefix = Array(#"{"message":{"body":""#.utf8)
    private static let suffix = Array(#""}}"#.utf8)

    private func body(_ inserted: [UInt8], at position: Int) -> [UInt8] {
        let text = Array("abcdefghijklmnopqrstuvwx".utf8)
        return Self.prefix + text[..<position] + inserted + text[position...] + Self.suffix
    }

    @Test(arguments: 0..<17)
    func controlCharacterIsFoundAtEveryPositionOfAWord(_ position: Int) {
        let problem = parseError(body([0x01], at: position))
        #expect(problem?.code == "invalid_json")
        #expect(problem?.message.contains("at byte \(Self.prefix.count + position):") == true)
    }

    @Test(arguments: 0..<17)
    func invalidUTF8IsFoundAtEveryPositionOfAWord(_ position: Int) {
        let problem = parseError(body([0xFF], at: position))
        #expect(problem?.code == "invalid_utf8")
        #expect(problem?.message.contains("byte \(Self.prefix.count + position)") == true)
    }

    @Test(arguments: 0..<17)
    func nonASCIIAndEscapesAreReadAtEveryPositionOfAWord(_ position: Int) {
        for (inserted, decoded) in [(Array("é€😀".utf8), "é€😀"), (Array(#"\"\\"#.utf8), "\"\\")] {
            let records = Harness.translate(bytes: body(inserted, at: position))
            #expect(records.deadLetters.isEmpty)
            let text = "abcdefghijklmnopqrstuvwx"
            let expected = String(text.prefix(position)) + decoded + String(text.dropFirst(position))
            let escaped = expected.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                of: "\"", with: "\\\"")
            #expect(records.output(.apns)?.text == "{\"aps\":{\"alert\":\"\(escaped)\"}}")
        }
    }
}
