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
}
