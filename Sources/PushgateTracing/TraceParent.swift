import W3CTraceContext

/// The fields of a W3C `traceparent` header (Trace Context, section 3.2), read straight from its bytes:
/// `VERSION-TRACEID-PARENTID-FLAGS` in lowercase hex, ids not all zero, version `ff` invalid; a version above `00`
/// may carry more after a further `-`.
struct TraceParent: Equatable {
    /// The header's first 55 bytes (`VERSION-TRACEID-PARENTID-FLAGS`), checked; the ids are read from them only
    /// when asked for: a record's own `traceparent` is written from this text (``TraceHeaders``).
    private(set) var text: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0)
    /// Whether the parent was sampled (flags bit 0).
    let sampled: Bool

    /// The fields of `value`; `nil` when it is not a valid `traceparent`.
    init?(_ value: ArraySlice<UInt8>) {
        guard let parsed = value.withUnsafeBytes({ TraceParent(bytes: $0) }) else { return nil }
        self = parsed
    }

    /// The `traceparent` whose bytes are `bytes`; `nil` when it is not valid. Checked in one pass without a loop:
    /// the ids eight digits at a time (``isHex8(_:)``), version and flags two at a time.
    init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 55, let base = bytes.baseAddress,
            base.load(fromByteOffset: 2, as: UInt8.self) == UInt8(ascii: "-"),
            base.load(fromByteOffset: 35, as: UInt8.self) == UInt8(ascii: "-"),
            base.load(fromByteOffset: 52, as: UInt8.self) == UInt8(ascii: "-"),
            let version = Self.byte(base, at: 0), version != 0xff,
            version != 0
                ? bytes.count == 55 || base.load(fromByteOffset: 55, as: UInt8.self) == UInt8(ascii: "-")
                : bytes.count == 55,
            let flags = Self.byte(base, at: 53)
        else { return nil }
        func word(_ offset: Int) -> UInt64 { base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        let (trace0, trace1, trace2, trace3) = (word(3), word(11), word(19), word(27))
        let (span0, span1) = (word(36), word(44))
        // Lowercase hex, and not all zeros (`0` is 0x30 in every byte of a word of zeros).
        let zeros: UInt64 = 0x3030_3030_3030_3030
        guard Self.isHex8(trace0), Self.isHex8(trace1), Self.isHex8(trace2), Self.isHex8(trace3),
            Self.isHex8(span0), Self.isHex8(span1),
            (trace0 ^ zeros) | (trace1 ^ zeros) | (trace2 ^ zeros) | (trace3 ^ zeros) != 0,
            (span0 ^ zeros) | (span1 ^ zeros) != 0
        else { return nil }
        sampled = flags & 1 == 1
        // The 55 bytes as seven words: the last one's seven bytes from a load at 47, its first byte shifted out.
        let last = (UInt64(littleEndian: word(47)) >> 8).littleEndian
        text = (word(0), word(8), word(16), word(24), word(32), word(40), last)
    }

    /// The trace id.
    var traceID: TraceID { TraceIDGenerator.traceID(ids.trace) }
    /// The parent span's id.
    var spanID: SpanID { TraceIDGenerator.spanID(ids.span) }

    /// The trace id and the parent span's id as big-endian words, read from the text (checked when it was read).
    var ids: (trace: (high: UInt64, low: UInt64), span: UInt64) {
        withUnsafeBytes(of: text) { text in
            func word(at offset: Int) -> UInt64 {
                let high = Self.checkedHex8(text.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let low = Self.checkedHex8(text.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                return UInt64(high) << 32 | UInt64(low)
            }
            return ((word(at: 3), word(at: 19)), word(at: 36))
        }
    }

    /// The trace id's last 8 bytes as a big-endian word (what a ratio sampler decides on).
    var traceLow: UInt64 {
        withUnsafeBytes(of: text) { text in
            let high = Self.checkedHex8(text.loadUnaligned(fromByteOffset: 19, as: UInt64.self))
            let low = Self.checkedHex8(text.loadUnaligned(fromByteOffset: 27, as: UInt64.self))
            return UInt64(high) << 32 | UInt64(low)
        }
    }

    static func == (left: TraceParent, right: TraceParent) -> Bool {
        let (leftIDs, rightIDs) = (left.ids, right.ids)
        return leftIDs.trace == rightIDs.trace && leftIDs.span == rightIDs.span && left.sampled == right.sampled
    }

    /// Whether the eight bytes of `loaded` are all lowercase hex digits: each byte's range is read from the high
    /// bit of a sum (no byte carries into the next once all are below 0x80).
    @inline(__always)
    static func isHex8(_ loaded: UInt64) -> Bool {
        let chunk = UInt64(littleEndian: loaded)
        let high: UInt64 = 0x8080_8080_8080_8080
        let digits = (chunk &+ 0x5050_5050_5050_5050) & ~(chunk &+ 0x4646_4646_4646_4646) & high  // 0-9
        let letters = (chunk &+ 0x1f1f_1f1f_1f1f_1f1f) & ~(chunk &+ 0x1919_1919_1919_1919) & high  // a-f
        return chunk & high == 0 && digits | letters == high
    }

    /// The value of eight lowercase hex digits already checked (``isHex8(_:)``), the first in memory the most
    /// significant, as loaded in one word.
    @inline(__always)
    static func checkedHex8(_ loaded: UInt64) -> UInt32 {
        let chunk = UInt64(littleEndian: loaded)
        // Each byte its digit's value (a letter's bit 6 set: 9 more); then two by two into bytes, the first digit
        // the high nibble.
        let letters = (chunk >> 6) & 0x0101_0101_0101_0101
        var value = (chunk & 0x0f0f_0f0f_0f0f_0f0f) &+ letters &* 9
        value = (value & 0x000f_000f_000f_000f) << 4 | (value & 0x0f00_0f00_0f00_0f00) >> 8
        value = (value | value >> 8) & 0x0000_ffff_0000_ffff
        value = (value | value >> 16) & 0xffff_ffff
        // The first two digits' byte is the lowest: big-endian order makes it the most significant.
        return UInt32(truncatingIfNeeded: value).byteSwapped
    }

    /// The byte of the two lowercase hex digits at `offset`.
    @inline(__always)
    private static func byte(_ base: UnsafeRawPointer, at offset: Int) -> UInt8? {
        guard let high = digit(base.load(fromByteOffset: offset, as: UInt8.self)),
            let low = digit(base.load(fromByteOffset: offset + 1, as: UInt8.self))
        else { return nil }
        return high << 4 | low
    }

    /// The value of one lowercase hex digit (compared without ranges: a `...` pattern made a range per call).
    @inline(__always)
    private static func digit(_ character: UInt8) -> UInt8? {
        let decimal = character &- UInt8(ascii: "0")
        if decimal < 10 { return decimal }
        let letter = character &- UInt8(ascii: "a")
        if letter < 6 { return letter + 10 }
        return nil
    }
}
