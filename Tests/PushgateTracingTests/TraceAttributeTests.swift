import Testing

@testable import PushgateTracing

/// Attributes as OTLP bytes: a decimal attribute is the same string attribute its digits make.
@Suite struct TraceAttributeTests {
    private func bytes(_ value: TraceAttribute) -> [UInt8] {
        var writer = SpanAttributeWriter()
        writer.set("messaging.destination.partition.id", value)
        return writer.bytes
    }

    @Test func aDecimalIsWrittenAsTheStringOfItsDigits() {
        for number: Int64 in [0, 7, 9, 10, 99, 100, 31, 123_456_789, -1, -42, .max, .min] {
            #expect(bytes(.decimal(number)) == bytes(.string(String(number))), "\(number)")
        }
    }

    @Test func aKeyEncodedOnceIsWrittenAsAKeyValuesKeyField() {
        // The key's field: tag 1, length-delimited (0x0a), its length, its bytes.
        #expect(TraceAttributeKey("ab").field == [0x0a, 2, 0x61, 0x62])
        let long = TraceAttributeKey(String(repeating: "k", count: 200))
        #expect(long.field.prefix(3) == [0x0a, 0xc8, 0x01] && long.field.count == 203, "a two-byte length")
        // Span.attributes (9) { key (1) "ab", value (2) { int_value (3) 1 } }.
        var writer = SpanAttributeWriter()
        writer.set(TraceAttributeKey("ab"), .int(1))
        #expect(writer.bytes == [0x4a, 8, 0x0a, 2, 0x61, 0x62, 0x12, 2, 0x18, 1])
        // ... { value (2) { array_value (5) { values (1) AnyValue { string_value (1) "a" } } } }.
        var strings = SpanAttributeWriter()
        strings.set(TraceAttributeKey("ab"), .strings(["a"]))
        #expect(strings.bytes == [0x4a, 13, 0x0a, 2, 0x61, 0x62, 0x12, 7, 0x2a, 5, 0x0a, 3, 0x0a, 1, 0x61])
    }

    /// Keys are checked for ASCII eight bytes at a time, the rest one by one: a byte of 0x80 or more anywhere sends
    /// them to the full UTF-8 check, whose answer must be the standard library's.
    @Test func validUTF8IsDecidedAsTheStandardLibraryDecidesAtEveryPlace() {
        for length in 0...20 {
            let ascii = [UInt8](repeating: UInt8(ascii: "k"), count: length)
            #expect(TraceAttribute.isValidUTF8(ascii[...]))
            for place in 0..<length {
                for inserted: [UInt8] in [[0x80], [0xff], [0xc3, 0xa9], [0xe2, 0x82, 0xac], [0xc3]] {
                    var bytes = ascii
                    bytes.replaceSubrange(place..<place + 1, with: inserted)
                    let expected = String(validating: bytes, as: UTF8.self) != nil
                    #expect(TraceAttribute.isValidUTF8(bytes[...]) == expected, "\(bytes)")
                    // And as a slice that does not start at the array's start.
                    let shifted = [UInt8(ascii: "x")] + bytes
                    #expect(TraceAttribute.isValidUTF8(shifted[1...]) == expected)
                }
            }
        }
    }
}
