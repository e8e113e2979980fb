import Testing

@testable import PushTranslation

/// ``IntegerText`` against `Int64.init(_:)` on the integers around every length and bound, and the
/// numbers that are not integers.
@Suite struct IntegerTextTests {
    private static func integerText(_ text: String) -> IntegerText {
        Array(text.utf8).withUnsafeBufferPointer { IntegerText($0) }
    }

    @Test func integersOfEveryLengthAreTheirValue() {
        var texts = ["0", "-0", "9", "-9", "10", "-10"]
        var power: Int64 = 1
        for _ in 1...18 {
            power *= 10
            texts += ["\(power - 1)", "\(power)", "\(power + 1)", "-\(power - 1)", "-\(power)", "-\(power + 1)"]
        }
        texts += ["\(Int64.max)", "\(Int64.min)", "\(Int64.max - 1)", "\(Int64.min + 1)"]
        for text in texts {
            #expect(Self.integerText(text) == .value(Int64(text) ?? 0), "\(text)")
        }
    }

    @Test func integersOutsideInt64AreOutside() {
        for text in ["9223372036854775808", "-9223372036854775809", "10000000000000000000", "-99999999999999999999"] {
            #expect(Self.integerText(text) == .outsideInt64, "\(text)")
        }
    }

    @Test func fractionsAndExponentsAreNotIntegers() {
        for text in ["1.5", "-0.0", "1e3", "1E+3", "-2e-1", "123456789012345678.5", "1234567890123456789012.5"] {
            #expect(Self.integerText(text) == .notInteger, "\(text)")
        }
    }
}
