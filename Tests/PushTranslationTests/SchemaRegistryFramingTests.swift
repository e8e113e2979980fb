import PushModel
import PushTranslation
import Testing

/// SPEC 2, "Schema Registry framing (version 4)": `0x00`, a 4-byte big-endian schema id, then the payload.
@Suite struct SchemaRegistryFramingTests {
    static func framed(_ payload: [UInt8], schemaID: UInt32 = 42) -> [UInt8] {
        [0x00] + withUnsafeBytes(of: schemaID.bigEndian) { Array($0) } + payload
    }

    private static func translate(_ value: [UInt8], maxPayloadBytes: Int = 1_048_576) -> [OutputRecord] {
        Harness.translate(bytes: value, maxPayloadBytes: maxPayloadBytes)
    }

    @Test func aFramedPayloadGivesTheRecordsOfItsBarePayload() {
        let bare = Array(#"{"id":"n-1","message":{"title":"T","body":"B"},"data":{"k":1}}"#.utf8)
        let records = Self.translate(Self.framed(bare))
        #expect(records.formats == ["apns", "android-expandable"])
        #expect(records == Self.translate(bare))
    }

    @Test func aFramedDeadLetterKeepsTheWholeValueAndTheBarePayloadsProblems() throws {
        for bare in [#"{"message":{"body":""}}"#, #"{"a":1,"a":2}"#, "[1]", ""].map({ Array($0.utf8) }) + [[0xFF]] {
            let value = Self.framed(bare, schemaID: 0xFFFF_FFFF)
            let letter = try #require(Self.translate(value).deadLetters.first)
            let bareLetter = try #require(Self.translate(bare).deadLetters.first)
            #expect(Array(letter.value) == value)
            #expect(letter.problems == bareLetter.problems)
            #expect(letter.headers == bareLetter.headers)
        }
    }

    @Test(arguments: [[0x00], [0x00, 0x00], [0x00, 0x00, 0x00, 0x01], [0x00, 0x7B, 0x7D, 0x20]] as [[UInt8]])
    func aTruncatedFrameIsInvalidJSON(_ value: [UInt8]) throws {
        let records = Self.translate(value)
        let letter = try #require(records.first)
        #expect(records.count == 1 && letter.isDeadLetter)
        #expect(letter.codes == ["invalid_json "])
        #expect(letter.header("__connect.errors.stage") == "parse")
        #expect(letter.problems.first?.message.contains("Schema Registry frame") == true)
        #expect(Array(letter.value) == value)
    }

    @Test func aFrameWithNothingAfterItIsTheEmptyPayloadsInvalidJSON() {
        let letter = Self.translate(Self.framed([])).first
        #expect(letter?.codes == ["invalid_json "])
        #expect(letter?.problems.first?.message.contains("Schema Registry") == false)
    }

    @Test func maxPayloadBytesCountsTheWholeValue() {
        let bare = Array(#"{"message":{"body":"hello"}}"#.utf8)
        #expect(Self.translate(Self.framed(bare), maxPayloadBytes: bare.count + 5).deadLetters.isEmpty)
        let letter = Self.translate(Self.framed(bare), maxPayloadBytes: bare.count + 4).first
        #expect(letter?.codes == ["too_large "])
        #expect(letter?.problems.first?.message.contains("\(bare.count + 5) bytes") == true)
    }

    /// Only a first byte of `0x00` is a frame: a payload that starts with white space or `{` is read as it is,
    /// and a `0x00` after the first byte is still wrong JSON.
    @Test func onlyALeadingZeroByteIsAFrame() {
        #expect(Self.translate(Array(#" {"message":{"body":"b"}}"#.utf8)).deadLetters.isEmpty)
        let inside = Self.translate([UInt8(ascii: "{")] + [0, 0, 0, 0] + Array(#""message":{}}"#.utf8))
        #expect(inside.first?.codes == ["invalid_json "])
        #expect(inside.first?.problems.first?.message.contains("Schema Registry") == false)
    }
}
