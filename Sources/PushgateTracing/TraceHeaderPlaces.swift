import PushModel

/// Where the W3C trace headers (`traceparent`, `tracestate`) are in a record's header list: noted header by header
/// while the list is made (``note(_:at:)``), so that the record's trace reads its parent and puts its own headers
/// in place without searching the list again.
public struct TraceHeaderPlaces: Sendable, Equatable {
    /// The index of the first `traceparent`.
    public private(set) var traceparent: Int?
    /// The index of the first `tracestate`.
    public private(set) var tracestate: Int?
    /// The index of the first trace header of either name.
    public private(set) var first: Int?
    /// The index of the last trace header of either name.
    public private(set) var last = 0
    /// How many trace headers there are.
    public private(set) var count = 0

    /// No trace header noted yet.
    public init() {}

    /// The places of the trace headers of `headers`.
    public init(of headers: [RecordHeader]) {
        headers.withUnsafeBufferPointer { headers in
            for index in headers.indices { note(headers[index].name, at: index) }
        }
    }

    /// Notes the header named `name` at `index`: to be called for each header of the list, in order.
    @inline(__always)
    public mutating func note(_ name: String, at index: Int) {
        // `traceparent` and `tracestate` are 11 and 10 bytes long: most headers are passed over on their length.
        let length = name.utf8.count
        guard length == 11 || length == 10 else { return }
        noteTraceHeader(name, length: length, at: index)
    }

    private mutating func noteTraceHeader(_ name: String, length: Int, at index: Int) {
        if length == 11, TraceHeaders.equalsIgnoringASCIICase(name, TraceHeaders.traceparentName) {
            if traceparent == nil { traceparent = index }
        } else if length == 10, TraceHeaders.equalsIgnoringASCIICase(name, TraceHeaders.tracestateName) {
            if tracestate == nil { tracestate = index }
        } else {
            return
        }
        if first == nil { first = index }
        last = index
        count += 1
    }

    /// Whether the trace headers, if any, are side by side.
    var areSideBySide: Bool {
        guard let first else { return true }
        return last - first + 1 == count
    }
}
