import W3CTraceContext

/// The fields of a W3C `traceparent` header (Trace Context, section 3.2), read straight from its bytes:
/// `VERSION-TRACEID-PARENTID-FLAGS` in lowercase hex, ids not all zero, version `ff` invalid; a version above `00`
/// may carry more after a further `-`.
struct TraceParent: Equatable {
    var traceID: TraceID
    var spanID: SpanID
    var sampled: Bool

    /// The fields of `value`; `nil` when it is not a valid `traceparent`.
    init?(_ value: ArraySlice<UInt8>) {
        let parsed: TraceParent?? = value.withUnsafeBufferPointer { bytes in
            guard bytes.count >= 55, bytes[2] == UInt8(ascii: "-"), bytes[35] == UInt8(ascii: "-"),
                bytes[52] == UInt8(ascii: "-"),
                let version = Self.byte(bytes, at: 0), version != 0xff,
                version != 0 ? bytes.count == 55 || bytes[55] == UInt8(ascii: "-") : bytes.count == 55,
                let flags = Self.byte(bytes, at: 53)
            else { return nil }
            var traceID: TraceID.Bytes = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var spanID: SpanID.Bytes = (0, 0, 0, 0, 0, 0, 0, 0)
            let idsRead = withUnsafeMutableBytes(of: &traceID) { trace in
                withUnsafeMutableBytes(of: &spanID) { span in
                    Self.read(bytes, from: 3, into: trace) && Self.read(bytes, from: 36, into: span)
                }
            }
            guard idsRead else { return nil }
            return TraceParent(traceID: TraceID(bytes: traceID), spanID: SpanID(bytes: spanID), sampled: flags & 1 == 1)
        }
        guard let parsed = parsed ?? nil else { return nil }
        self = parsed
    }

    private init(traceID: TraceID, spanID: SpanID, sampled: Bool) {
        self.traceID = traceID
        self.spanID = spanID
        self.sampled = sampled
    }

    /// Reads `into.count` bytes of hex from `offset`; `false` when a digit is not lowercase hex or all are zero.
    private static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, from offset: Int, into id: UnsafeMutableRawBufferPointer
    ) -> Bool {
        var any: UInt8 = 0
        for index in 0..<id.count {
            guard let byte = byte(bytes, at: offset + 2 * index) else { return false }
            id[index] = byte
            any |= byte
        }
        return any != 0
    }

    /// The byte of the two lowercase hex digits at `offset`.
    private static func byte(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt8? {
        guard let high = digit(bytes[offset]), let low = digit(bytes[offset + 1]) else { return nil }
        return high << 4 | low
    }

    private static func digit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
