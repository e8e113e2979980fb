import PushModel
import PushTranslation
import PushgateTracing

/// The pipeline's part of SPEC section 11, when tracing is on: one consumer span per input, whose
/// `traceparent` (and `tracestate`) every record written for that input carries in place of the input's.
final class PipelineTracing: Sendable {
    let tracer: RecordTracer
    /// The consumer group, `messaging.consumer.group.name`.
    let group: String

    /// `pushgate.formats` of each set of formats an input can be translated into, encoded once: indexed by the
    /// set's bits, bit `n` for the `n`th of ``OutputFormat/allCases`` (the order one input yields them).
    private let formatsAttributes: [EncodedTraceAttribute]

    /// Spans made by `tracer`, for the consumer group `group`.
    init(tracer: RecordTracer, group: String) {
        self.tracer = tracer
        self.group = group
        formatsAttributes = (0..<(1 << OutputFormat.allCases.count)).map { bits in
            let formats = OutputFormat.allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }
            return EncodedTraceAttribute(Self.formatsKey, .strings(formats.map(\.element.rawValue)))
        }
    }

    /// Starts the trace of `input` and puts its trace headers in place of the input's own, so that the
    /// translator forwards them, at the forwarded headers' place, on every output and dead letter. The input's
    /// list is changed where it lies (``InputRecord/init(_:reservingHeaders:notingTraceHeaders:)`` leaves room for
    /// one more).
    /// `places`: where the input's trace headers are, noted while its header list was made.
    /// A sampled input's span is made in `span`, for ``end(_:)``.
    func begin(_ input: inout InputRecord, places: TraceHeaderPlaces, span: inout RecordSpan?) -> RecordTrace {
        let trace = tracer.startRecord(
            topic: input.topic, partition: input.partition, offset: input.offset, group: group, key: input.key,
            headers: input.headers, places: places, span: &span)
        trace.headers.replace(in: &input.headers, places: places)
        return trace
    }

    /// `pushgate.formats`.
    private static let formatsKey = TraceAttributeKey("pushgate.formats")

    /// Writes on the span of a sampled input what it was translated into: the formats written, and a dead
    /// letter's first error as the span's error.
    func record(_ translation: Translation, on span: RecordSpan) {
        span.encodedAttribute = formatsAttribute(of: translation)
        if let error = translation.deadLetters.first?.errors.first { span.setError(type: error.code.rawValue) }
    }

    /// Ends a sampled input's span: it is queued for export.
    func end(_ span: RecordSpan) { tracer.end(span) }

    /// `pushgate.formats` of `translation`'s records: the set's, encoded once, when they come in the order of
    /// ``OutputFormat/allCases`` without repeats (as one input's do); else written for this one.
    func formatsAttribute(of translation: Translation) -> EncodedTraceAttribute {
        var bits = 0
        var inOrder = true
        for record in translation.records {
            guard let format = record.format else { continue }
            let bit = 1 << format.order
            inOrder = inOrder && bit > bits
            bits |= bit
        }
        guard !inOrder else { return formatsAttributes[bits] }
        let formats = translation.records.compactMap { $0.format?.rawValue }
        return EncodedTraceAttribute(Self.formatsKey, .strings(formats))
    }
}
