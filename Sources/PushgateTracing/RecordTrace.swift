import Logging

/// One record's trace (SPEC section 11): the `traceparent` and `tracestate` of its span, which every record
/// written on its behalf carries, and the span itself when the record is sampled. A record that is not sampled
/// has no span object at all, only ids of its own, propagated with flags `00`.
public final class RecordTrace: Sendable {
    /// The record trace current in this task: its ids are in the log lines (``logMetadata``).
    @TaskLocal public static var current: RecordTrace?

    /// The span recorded and exported for the record; `nil` when it is not sampled.
    public let span: TraceSpan?
    /// The span's `traceparent` (`00-TRACEID-SPANID-FLAGS`) and `tracestate`.
    public let headers: TraceHeaders

    /// A record's trace: `span` when sampled, and its headers.
    init(span: TraceSpan?, headers: TraceHeaders) {
        self.span = span
        self.headers = headers
    }

    /// Whether the record's span is recorded and exported.
    public var isSampled: Bool { span != nil }

    /// Ends the span, when there is one.
    public func end() { span?.end() }

    /// `trace_id`, `span_id` and `trace_flags` (hex, as in `traceparent`) of the current record trace, for every
    /// log line written while one is current.
    public static var logMetadata: Logger.MetadataProvider {
        Logger.MetadataProvider {
            guard let traceparent = current?.headers.traceparentBytes, traceparent.count == 55 else { return [:] }
            func field(_ start: Int, _ length: Int) -> Logger.Metadata.Value {
                .string(String(decoding: traceparent[start..<start + length], as: UTF8.self))
            }
            return ["trace_id": field(3, 32), "span_id": field(36, 16), "trace_flags": field(53, 2)]
        }
    }
}
