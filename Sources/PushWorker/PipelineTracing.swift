import PushModel
import PushTranslation
import PushgateTracing

/// The pipeline's part of SPEC section 11, when tracing is on: one consumer span per input, whose
/// `traceparent` (and `tracestate`) every record written for that input carries in place of the input's.
final class PipelineTracing: Sendable {
    let tracer: RecordTracer
    /// The consumer group, `messaging.consumer.group.name`.
    let group: String

    /// Spans made by `tracer`, for the consumer group `group`.
    init(tracer: RecordTracer, group: String) {
        self.tracer = tracer
        self.group = group
    }

    /// Starts the trace of `input` and puts its trace headers in place of the input's own, so that the
    /// translator forwards them, at the forwarded headers' place, on every output and dead letter. The input's
    /// list is changed where it lies (``InputRecord/init(_:reservingHeaders:notingTraceHeaders:)`` leaves room for
    /// one more).
    /// `places`: where the input's trace headers are, noted while its header list was made.
    func begin(_ input: inout InputRecord, places: TraceHeaderPlaces) -> RecordTrace {
        let trace = tracer.startRecord(
            topic: input.topic, partition: input.partition, offset: input.offset, group: group, key: input.key,
            headers: input.headers, places: places)
        trace.headers.replace(in: &input.headers, places: places)
        return trace
    }

    /// `pushgate.formats`.
    private static let formatsKey = TraceAttributeKey("pushgate.formats")

    /// Writes on the span of a sampled input what it was translated into: the formats written, and a dead
    /// letter's first error as the span's error.
    func record(_ translation: Translation, on span: TraceSpan) {
        var formats: [String] = []
        formats.reserveCapacity(translation.records.count)
        for record in translation.records { if let format = record.format { formats.append(format.rawValue) } }
        let error = translation.deadLetters.first?.errors.first
        span.setAttribute(Self.formatsKey, .strings(formats))
        if let error { span.setError(type: error.code.rawValue) }
    }
}
