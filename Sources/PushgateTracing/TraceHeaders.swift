import PushModel

/// The W3C Trace Context headers of one span, as pushgate writes them on a record (SPEC section 11):
/// `traceparent`, and `tracestate` when the trace has one.
public struct TraceHeaders: Sendable, Hashable {
    /// `traceparent`: the header's name.
    public static let traceparentName = "traceparent"
    /// `tracestate`: the header's name.
    public static let tracestateName = "tracestate"

    /// `traceparent` as written on records: its UTF-8 bytes.
    public let traceparentBytes: [UInt8]
    /// The vendors' entries, `nil` when there are none.
    public var tracestate: String?

    /// `00-TRACEID-SPANID-FLAGS`.
    public var traceparent: String { String(decoding: traceparentBytes, as: UTF8.self) }

    /// The headers of a span whose `traceparent` and `tracestate` are these.
    public init(traceparent: String, tracestate: String? = nil) {
        self.init(traceparentBytes: Array(traceparent.utf8), tracestate: tracestate)
    }

    /// The headers of a span whose `traceparent` (UTF-8) and `tracestate` are these.
    public init(traceparentBytes: [UInt8], tracestate: String? = nil) {
        self.traceparentBytes = traceparentBytes
        self.tracestate = tracestate
    }

    /// The headers as a list: `traceparent`, then `tracestate` when there is one.
    public var list: [RecordHeader] {
        var headers: [RecordHeader] = []
        append(to: &headers)
        return headers
    }

    private func append(to headers: inout [RecordHeader]) {
        headers.append(RecordHeader(name: Self.traceparentName, value: traceparentBytes))
        if let tracestate { headers.append(RecordHeader(name: Self.tracestateName, text: tracestate)) }
    }

    /// Whether `name` is `traceparent` or `tracestate` (ASCII case-insensitively, as W3C names are).
    public static func isTraceHeader(_ name: String) -> Bool {
        name.utf8.count <= 11
            && (equalsIgnoringASCIICase(name, traceparentName) || equalsIgnoringASCIICase(name, tracestateName))
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

    /// The first value of the header named `name` (ASCII case-insensitively) in `headers`, as UTF-8 text.
    /// The bytes of the first header named `name` (ignoring ASCII case); `nil` when there is none or it is null.
    static func bytes(of name: String, in headers: [RecordHeader]) -> ArraySlice<UInt8>? {
        for header in headers where equalsIgnoringASCIICase(header.name, name) { return header.value }
        return nil
    }

    static func value(of name: String, in headers: [RecordHeader]) -> String? {
        for header in headers where equalsIgnoringASCIICase(header.name, name) {
            guard let bytes = header.value else { return nil }
            return String(validating: bytes, as: UTF8.self)
        }
        return nil
    }

    private static func equalsIgnoringASCIICase(_ left: String, _ right: String) -> Bool {
        left.utf8.count == right.utf8.count
            && zip(left.utf8, right.utf8).allSatisfy { a, b in
                a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
            }
    }
}
