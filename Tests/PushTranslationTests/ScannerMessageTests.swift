import PushModel
import PushTranslation
import Testing

/// SPEC section 9: the scanner's failures name the byte where the first problem is and say what it is,
/// in exact words. The scanner takes shortcuts for compact JSON (one look for white space, strings and
/// member names found a word at a time, the value after a name read inline); these pin down that each
/// problem is still reported where and as it is, including at the end of the input and inside the last
/// word, which the word-at-a-time paths do not read.
@Suite struct ScannerMessageTests {
    private func parseMessage(_ text: String) -> String? {
        let records = Harness.translate(bytes: Array(text.utf8))
        guard records.count == 1, let deadLetter = records.first, deadLetter.isDeadLetter,
            deadLetter.header("__connect.errors.stage") == "parse"
        else { return nil }
        return deadLetter.problems.first?.message
    }

    @Test(arguments: [
        (#"{"message":{"body":"x"}"#, "invalid JSON at byte 23 (end of input): expected ',' or '}' in an object"),
        (#"{"a""#, "invalid JSON at byte 4 (end of input): expected ':' after a member name"),
        (#"{"a":"#, "invalid JSON at byte 5 (end of input): unexpected end of input, expected a value"),
        (#"{"a": "#, "invalid JSON at byte 6 (end of input): unexpected end of input, expected a value"),
        (#"{"a":1.}"#, "invalid JSON at byte 7: expected a digit after '.' in a number"),
        (#"{"a":1e+}"#, "invalid JSON at byte 8: expected a digit in a number's exponent"),
        (#"{"a":-}"#, "invalid JSON at byte 6: expected a digit in a number"),
        (#"{"a":x}"#, "invalid JSON at byte 5: unexpected 'x', expected a value"),
        (#"{"a":1,}"#, "invalid JSON at byte 7: expected a member name in double quotes"),
        (#"{"a":"b" "c":1}"#, "invalid JSON at byte 9: expected ',' or '}' in an object"),
        (#"{"a":"bc"#, "invalid JSON at byte 8 (end of input): unterminated string"),
        (#"{"abcdefghij":"v","abcdefghij":"w"}"#, #"duplicate member name "abcdefghij" at byte 18"#),
        (#"{"":1,"":2}"#, #"duplicate member name "" at byte 6"#),
        (#"{"message":{"body":"x"},"x":1,"x":2}"#, #"duplicate member name "x" at byte 30"#),
    ])
    func problemIsReportedWhereItIs(_ text: String, _ message: String) {
        #expect(parseMessage(text) == message)
    }

    @Test func whitespaceBetweenEveryTokenIsFine() {
        let text = " { \"message\" :\n{ \"body\" : \"x\" } , \"data\" : { \"n\" : [ 1 , -2.5e3 ] } } "
        #expect(parseMessage(text) == nil)
    }

    @Test func missingValueAtTheDepthLimitIsTheEndOfInputNotTooDeep() {
        let text = String(repeating: "[", count: 64)
        let message = "invalid JSON at byte 64 (end of input): unexpected end of input, expected a value"
        #expect(parseMessage(text) == message)
    }

    @Test func stringAtDepth65IsTooDeep() {
        let text = #"{"message":{"body":"x"},"data":{"a":"# + String(repeating: "[", count: 62) + #""s""#
        let offset = text.utf8.count - 3
        #expect(parseMessage(text) == "value at byte \(offset) is nested deeper than 64 levels")
    }
}
