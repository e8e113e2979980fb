import Logging
import PushModel

/// One record's trace (SPEC section 11): the `traceparent` and `tracestate` of its span, which every record
/// written on its behalf carries, and the span itself when the record is sampled. A record that is not sampled
/// has no span object at all, only ids of its own, propagated with flags `00`: its trace is a plain value.
public struct RecordTrace: Sendable {
    /// The record trace current in this task: its ids are in the log lines (``logMetadata``).
    @TaskLocal public static var current: RecordTrace?

    /// Runs `body` with `trace` current on the calling thread, for ``logMetadata``: for work on one record that runs
    /// on one thread without suspending, where a task-local value (``current``) would allocate for every record.
    public static func withCurrentOnThread(_ trace: RecordTrace, _ body: () -> Void) {
        ThreadRecordTrace.withValue(trace, body)
    }

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

    /// `trace_id`, `span_id` and `trace_flags` (hex, as in `traceparent`) of the current record trace (the calling
    /// thread's, else the task's), for every log line written while one is current.
    public static var logMetadata: Logger.MetadataProvider {
        Logger.MetadataProvider {
            guard let headers = (ThreadRecordTrace.current ?? current)?.headers else { return [:] }
            return headers.withTraceparentBytes { traceparent in
                func field(_ start: Int, _ length: Int) -> Logger.Metadata.Value {
                    .string(String(decoding: traceparent[start..<start + length], as: UTF8.self))
                }
                return ["trace_id": field(3, 32), "span_id": field(36, 16), "trace_flags": field(53, 2)]
            }
        }
    }
}
