import PushModel

/// The W3C Trace Context headers of one span, as pushgate writes them on every record made on a record's behalf
/// (SPEC section 11): `traceparent`, and `tracestate` when the trace has one. `traceparent`'s 55 bytes of text are
/// held inline: a record's trace costs no allocation until its headers are written on a record.
public struct TraceHeaders: Sendable, Hashable {
    /// `traceparent`: the header's name.
    public static let traceparentName = "traceparent"
    /// `tracestate`: the header's name.
    public static let tracestateName = "tracestate"
    /// The length of a version `00` `traceparent`.
    static let traceparentLength = 55

    /// 56 bytes held inline, as seven words.
    typealias Text = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// `traceparent`'s text, `00-TRACEID-SPANID-FLAGS`, in the first 55 of its 56 bytes.
    private(set) var text: Text = (0, 0, 0, 0, 0, 0, 0)
    /// The vendors' entries, `nil` when there are none.
    public var tracestate: Optional<String>

    /// The headers of the span `spanID` of trace `traceID` (both as big-endian words, as in `traceparent`),
    /// whose flags say whether it is `sampled`.
    public init(traceID: (high: UInt64, low: UInt64), spanID: UInt64, sampled: Bool, tracestate: String? = nil) {
        self.tracestate = tracestate
        withUnsafeMutableBytes(of: &text) { text in
            // `00-` TRACEID `-` SPANID `-` FLAGS: the digits written eight at a time (``hexDigits(_:)``).
            Self.storeDigits(of: traceID.high, in: text, at: 3)
            Self.storeDigits(of: traceID.low, in: text, at: 19)
            Self.storeDigits(of: spanID, in: text, at: 36)
            text[0] = UInt8(ascii: "0")
            text[1] = UInt8(ascii: "0")
            text[2] = UInt8(ascii: "-")
            text[35] = UInt8(ascii: "-")
            text[52] = UInt8(ascii: "-")
            text[53] = UInt8(ascii: "0")
            text[54] = sampled ? UInt8(ascii: "1") : UInt8(ascii: "0")
        }
    }

    /// The headers of the span `spanID` (a big-endian word) in the trace of `parent`, whose flags say whether it is
    /// `sampled`: the parent's checked text, its trace id kept as it is written there.
    init(parent: TraceParent, spanID: UInt64, sampled: Bool, tracestate: String?) {
        self.tracestate = tracestate
        text = parent.text
        withUnsafeMutableBytes(of: &text) { text in
            Self.storeDigits(of: spanID, in: text, at: 36)
            text[0] = UInt8(ascii: "0")
            text[1] = UInt8(ascii: "0")
            text[53] = UInt8(ascii: "0")
            text[54] = sampled ? UInt8(ascii: "1") : UInt8(ascii: "0")
        }
    }

    /// Writes the 16 hex digits of `word` at `offset` of `text`.
    @inline(__always)
    private static func storeDigits(of word: UInt64, in text: UnsafeMutableRawBufferPointer, at offset: Int) {
        text.storeBytes(of: hexDigits(UInt32(truncatingIfNeeded: word >> 32)), toByteOffset: offset, as: UInt64.self)
        text.storeBytes(of: hexDigits(UInt32(truncatingIfNeeded: word)), toByteOffset: offset + 8, as: UInt64.self)
    }

    /// The eight lowercase hex digits of `value`, most significant first, as the bytes of a word in memory order:
    /// each nibble spread into a byte of its own, then made a digit, all eight at once.
    @inline(__always)
    static func hexDigits(_ value: UInt32) -> UInt64 {
        var nibbles = UInt64(value)
        nibbles = (nibbles | nibbles << 16) & 0x0000_ffff_0000_ffff
        nibbles = (nibbles | nibbles << 8) & 0x00ff_00ff_00ff_00ff
        nibbles = (nibbles | nibbles << 4) & 0x0f0f_0f0f_0f0f_0f0f
        // 1 in each byte whose nibble is 10 or more: `a` is 39 after `9` + 1.
        let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        let digits = nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
        // The most significant nibble is in the highest byte: big-endian order puts it first in memory.
        return digits.bigEndian
    }

    /// The headers whose `traceparent` is `traceparent` (55 bytes, as version `00` writes it) and whose `tracestate`
    /// is `tracestate`; `nil` when `traceparent` is not 55 bytes long.
    public init?(traceparent: String, tracestate: String? = nil) {
        let bytes = Array(traceparent.utf8)
        guard bytes.count == Self.traceparentLength else { return nil }
        self.tracestate = tracestate
        withUnsafeMutableBytes(of: &text) { $0.copyBytes(from: bytes) }
    }

    /// Calls `body` with `traceparent`'s UTF-8 bytes, valid only during the call.
    public func withTraceparentBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(of: text) { body(UnsafeRawBufferPointer(rebasing: $0[..<Self.traceparentLength])) }
    }

    /// Whether `traceparent`'s flags say the span is sampled.
    public var isSampled: Bool {
        // The flags' last hex digit holds the sampled bit: a digit's is its byte's lowest bit, a letter's the opposite.
        withUnsafeBytes(of: text) { $0[54] <= UInt8(ascii: "9") ? $0[54] & 1 == 1 : $0[54] & 1 == 0 }
    }

    /// `traceparent` as UTF-8 bytes.
    public var traceparentBytes: [UInt8] { withTraceparentBytes { Array($0) } }

    /// `traceparent`: `00-TRACEID-SPANID-FLAGS`.
    public var traceparent: String { withTraceparentBytes { String(decoding: $0, as: UTF8.self) } }

    public static func == (left: TraceHeaders, right: TraceHeaders) -> Bool {
        withUnsafeBytes(of: left.text) { left in withUnsafeBytes(of: right.text) { left.elementsEqual($0) } }
            && left.tracestate == right.tracestate
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: text) { hasher.combine(bytes: $0) }
        hasher.combine(tracestate)
    }

    /// The headers as a list: `traceparent`, then `tracestate` when there is one.
    public var list: [RecordHeader] {
        var headers: [RecordHeader] = []
        append(to: &headers)
        return headers
    }

    private func append(to headers: inout [RecordHeader]) {
        headers.append(traceparentHeader)
        if let tracestate { headers.append(RecordHeader(name: Self.tracestateName, text: tracestate)) }
    }

    private var traceparentHeader: RecordHeader {
        RecordHeader(name: Self.traceparentName, value: traceparentBytes)
    }

    /// `headers` with these in place of the trace headers they have: at the place of the first of them, or, when
    /// they have none, after the others. Every other header keeps its place and order.
    public func replacing(in headers: [RecordHeader]) -> [RecordHeader] {
        var replaced: [RecordHeader] = []
        replaced.reserveCapacity(headers.count + 2)
        var written = false
        for header in headers {
            guard Self.isTraceHeader(header.name) else {
                replaced.append(header)
                continue
            }
            if !written {
                append(to: &replaced)
                written = true
            }
        }
        if !written { append(to: &replaced) }
        return replaced
    }

    /// Puts these in place of the trace headers of `headers`, as ``replacing(in:)`` does, changing the list where
    /// it lies in the common cases: a record without trace headers (these are appended), and one whose trace
    /// headers are as many as these and side by side (they are overwritten).
    public func replace(in headers: inout [RecordHeader]) {
        replace(in: &headers, places: TraceHeaderPlaces(of: headers))
    }

    /// ``replace(in:)`` for a list whose trace headers are at `places` (noted while the list was made).
    public func replace(in headers: inout [RecordHeader], places: TraceHeaderPlaces) {
        guard let first = places.first else {
            append(to: &headers)
            return
        }
        // The input's trace headers must be exactly the places these take.
        guard places.count == (tracestate == nil ? 1 : 2), places.areSideBySide, places.last < headers.count else {
            headers = replacing(in: headers)
            return
        }
        overwriteTraceparent(at: first, in: &headers)
        if let tracestate { headers[first + 1] = RecordHeader(name: Self.tracestateName, text: tracestate) }
    }

    /// Puts `traceparent` at `index`: into the bytes of the header there when they are another `traceparent`'s 55
    /// bytes held by that header alone (a producer's that traces: no allocation), else as a new header.
    private func overwriteTraceparent(at index: Int, in headers: inout [RecordHeader]) {
        guard headers[index].value?.count == Self.traceparentLength else {
            headers[index] = traceparentHeader
            return
        }
        if headers[index].name != Self.traceparentName { headers[index].name = Self.traceparentName }
        // Written word by word, in the list's own storage.
        headers.withUnsafeMutableBufferPointer { headers in
            headers[index].value?.withUnsafeMutableBytes { value in
                withUnsafeBytes(of: text) { text in
                    for offset in stride(from: 0, to: 48, by: 8) {
                        value.storeBytes(
                            of: text.load(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset,
                            as: UInt64.self)
                    }
                    // Bytes 47 to 54 (47 once more): the value is 55 bytes long.
                    value.storeBytes(
                        of: text.loadUnaligned(fromByteOffset: 47, as: UInt64.self), toByteOffset: 47, as: UInt64.self)
                }
            }
        }
    }

    /// Whether `name` is `traceparent` or `tracestate` (ASCII case-insensitively, as W3C names are).
    public static func isTraceHeader(_ name: String) -> Bool {
        // `traceparent` and `tracestate` are 11 and 10 bytes long; the length is read first.
        let length = name.utf8.count
        return (length == 11 || length == 10)
            && (equalsIgnoringASCIICase(name, traceparentName) || equalsIgnoringASCIICase(name, tracestateName))
    }

    /// Whether `left` and `right` are the same name, ignoring ASCII case (as W3C names are compared).
    static func equalsIgnoringASCIICase(_ left: String, _ right: String) -> Bool {
        guard left.utf8.count == right.utf8.count else { return false }
        // The usual spelling first: equal strings of up to 15 bytes compare as two words.
        if left == right { return true }
        // The bytes in place (iterating two UTF8Views in step cost some hundred instructions a character).
        let compared = left.utf8.withContiguousStorageIfAvailable { left in
            right.utf8.withContiguousStorageIfAvailable { right in equalsIgnoringASCIICase(left, right) }
        }
        if case .some(.some(let equal)) = compared { return equal }
        return equalsIgnoringASCIICase(Array(left.utf8), Array(right.utf8))
    }

    private static func equalsIgnoringASCIICase(
        _ left: some RandomAccessCollection<UInt8>, _ right: some RandomAccessCollection<UInt8>
    ) -> Bool {
        zip(left, right).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
        }
    }
}
