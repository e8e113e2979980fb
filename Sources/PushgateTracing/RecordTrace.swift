import Logging
import PushModel

/// One record's trace (SPEC section 11): the `traceparent` and `tracestate` of its span, which every record
/// written on its behalf carries, and the span itself when the record is sampled. A record that is not sampled
/// has no span object at all, only ids of its own, propagated with flags `00`: its trace is a plain value.
public struct RecordTrace: Sendable {
    /// The record trace current in this task: its ids are in the log lines (``logMetadata``). Work on one record
    /// that runs on one thread without suspending makes it current on the thread instead (``ThreadRecordTrace``),
    /// where a task-local value would allocate for every record.
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

    /// The trace of a record whose span, if it has one, is kept apart (a ``RecordSpan``): its headers, for the
    /// log lines written while it is current.
    init(headers: TraceHeaders) {
        self.span = nil
        self.headers = headers
    }

    /// Whether the record's span is recorded and exported (its `traceparent`'s flags say so).
    public var isSampled: Bool { headers.isSampled }

    /// Ends the span, when there is one.
    public func end() { span?.end() }

    /// `trace_id`, `span_id` and `trace_flags` (hex, as in `traceparent`) of the current record trace (the calling
    /// thread's, else the task's), for every log line written while one is current.
    public static var logMetadata: Logger.MetadataProvider {
        Logger.MetadataProvider {
            if let traceparent = ThreadRecordTrace.currentTraceparent { return metadata(traceparent) }
            guard let headers = current?.headers else { return [:] }
            return metadata(headers.text)
        }
    }

    /// The log metadata of a trace whose `traceparent` text is `traceparent`.
    private static func metadata(_ traceparent: TraceHeaders.Text) -> Logger.Metadata {
        withUnsafeBytes(of: traceparent) { traceparent in
            func field(_ start: Int, _ length: Int) -> Logger.Metadata.Value {
                .string(String(decoding: traceparent[start..<start + length], as: UTF8.self))
            }
            return ["trace_id": field(3, 32), "span_id": field(36, 16), "trace_flags": field(53, 2)]
        }
    }
}
