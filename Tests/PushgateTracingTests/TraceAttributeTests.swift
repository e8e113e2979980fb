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
}
