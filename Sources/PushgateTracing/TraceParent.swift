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
        guard let base = bytes.baseAddress else { return false }
        var any: UInt64 = 0
        for word in 0..<id.count / 8 {
            let digits = UnsafeRawPointer(base + offset + 16 * word)
            guard let high = hex8(digits.loadUnaligned(as: UInt64.self)),
                let low = hex8(digits.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            else { return false }
            let value = UInt64(high) << 32 | UInt64(low)
            id.storeBytes(of: value.bigEndian, toByteOffset: 8 * word, as: UInt64.self)
            any |= value
        }
        return any != 0
    }

    /// The value of eight lowercase hex digits, the first in memory the most significant, as loaded in one word;
    /// `nil` when one is not a lowercase hex digit. All eight at once: each byte's range is read from the high bit
    /// of a sum (no byte carries into the next once all are below 0x80).
    @inline(__always)
    static func hex8(_ loaded: UInt64) -> UInt32? {
        let chunk = UInt64(littleEndian: loaded)
        let high: UInt64 = 0x8080_8080_8080_8080
        guard chunk & high == 0 else { return nil }
        let digits = (chunk &+ 0x5050_5050_5050_5050) & ~(chunk &+ 0x4646_4646_4646_4646) & high  // 0-9
        let letters = (chunk &+ 0x1f1f_1f1f_1f1f_1f1f) & ~(chunk &+ 0x1919_1919_1919_1919) & high  // a-f
        guard digits | letters == high else { return nil }
        // Each byte its digit's value; then two by two into bytes, the first digit the high nibble.
        var value = (chunk & 0x0f0f_0f0f_0f0f_0f0f) &+ (letters >> 7) &* 9
        value = (value & 0x000f_000f_000f_000f) << 4 | (value & 0x0f00_0f00_0f00_0f00) >> 8
        value = (value | value >> 8) & 0x0000_ffff_0000_ffff
        value = (value | value >> 16) & 0xffff_ffff
        // The first two digits' byte is the lowest: big-endian order makes it the most significant.
        return UInt32(truncatingIfNeeded: value).byteSwapped
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
