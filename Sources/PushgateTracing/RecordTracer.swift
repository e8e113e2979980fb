import OTelSemanticConventions
import PushModel
import Tracing
import W3CTraceContext

/// The spans of SPEC section 11 for the records pushgate reads and the requests it makes. Whether a record is
/// sampled is decided here first (``TraceSampler``): a sampled record's span is made with `tracer` (swift-otel's
/// when tracing is on, which then records every span it is given), one that is not sampled gets ids of its own and
/// no span object. Parents are read from record headers; the span's `traceparent` and `tracestate` are written
/// for the records made on its behalf.
public struct RecordTracer: Sendable {
    private let tracer: any Tracer
    private let sampler: TraceSampler
    private let ids = TraceIDGenerator()

    /// Spans made with `tracer` for the records `sampler` samples.
    public init(tracer: any Tracer, sampler: TraceSampler) {
        self.tracer = tracer
        self.sampler = sampler
    }

    /// The trace of one record read from `topic`: its consumer span `process TOPIC`, a child of the trace context
    /// of its `headers`, with the messaging attributes for Kafka when sampled. `key` is written when it is given
    /// and valid UTF-8; `group` when given.
    public func startRecord(
        topic: String, partition: Int32, offset: Int64, group: String?, key: [UInt8]?, headers: [RecordHeader]
    ) -> RecordTrace {
        let parent = Self.parent(in: headers)
        let traceID = parent?.context.traceID ?? ids.traceID()
        guard sampler.isSampled(traceID: traceID, parentSampled: parent?.context.flags.contains(.sampled)) else {
            let traceparent = Self.traceparent(traceID: traceID, spanID: ids.spanID(), sampled: false)
            return RecordTrace(
                span: nil, headers: TraceHeaders(traceparentBytes: traceparent, tracestate: parent?.state))
        }
        let span = tracer.startSpan("process \(topic)", context: context(of: parent), ofKind: .consumer)
        // Set at once, with room for the attributes added later (`pushgate.formats`, `error.type`): a dictionary
        // grown one attribute at a time is copied each time it grows.
        var attributes = SpanAttributes()
        attributes.reserveCapacity(10)
        attributes[OTelAttribute.messaging.system] = "kafka"
        attributes[OTelAttribute.messaging.operation.type] = "process"
        attributes[OTelAttribute.messaging.destination.name] = SpanAttribute.string(topic)
        attributes[OTelAttribute.messaging.destination.partition.id] = SpanAttribute.string(String(partition))
        attributes[OTelAttribute.messaging.kafka.offset] = SpanAttribute.int64(offset)
        if let group { attributes[OTelAttribute.messaging.consumer.group.name] = SpanAttribute.string(group) }
        if let key, let text = String(validating: key, as: UTF8.self) {
            attributes[OTelAttribute.messaging.kafka.message.key] = SpanAttribute.string(text)
        }
        span.attributes = attributes
        // A tracer that made the span without a context (it records nothing) still gives the records an
        // unsampled span id of pushgate's.
        let headers =
            traceHeaders(of: span.context)
            ?? TraceHeaders(
                traceparentBytes: Self.traceparent(traceID: traceID, spanID: ids.spanID(), sampled: false),
                tracestate: parent?.state)
        return RecordTrace(span: span.isRecording ? span : nil, headers: headers)
    }

    /// The client span `POST` of one request to a push service at `host`:`port`, a child of `record`'s span;
    /// `nil` when the record is not sampled (nor, then, are its requests).
    public func startRequestSpan(host: String, port: Int, record: RecordTrace) -> (any Span)? {
        guard let parent = record.span else { return nil }
        let span = tracer.startSpan("POST", context: parent.context, ofKind: .client)
        var attributes = SpanAttributes()
        attributes.reserveCapacity(8)
        attributes[OTelAttribute.http.request.method] = "POST"
        attributes[OTelAttribute.server.address] = SpanAttribute.string(host)
        attributes[OTelAttribute.server.port] = SpanAttribute.int64(Int64(port))
        span.attributes = attributes
        return span
    }

    /// A record's parent: its `traceparent`, with its `tracestate` when that is valid too (W3C Trace Context: an
    /// invalid `tracestate` is dropped, the `traceparent` kept); `nil` without a valid `traceparent`.
    static func parent(in headers: [RecordHeader]) -> (context: TraceContext, state: String?)? {
        guard let traceparent = TraceHeaders.value(of: TraceHeaders.traceparentName, in: headers) else { return nil }
        let state = TraceHeaders.value(of: TraceHeaders.tracestateName, in: headers).flatMap { $0.isEmpty ? nil : $0 }
        if let state, let context = try? TraceContext(traceParentHeaderValue: traceparent, traceStateHeaderValue: state)
        {
            return (context, state)
        }
        return (try? TraceContext(traceParentHeaderValue: traceparent)).map { ($0, nil) }
    }

    /// The tracer's context of `parent` (top level without one).
    private func context(of parent: (context: TraceContext, state: String?)?) -> InstrumentationContext {
        var context = InstrumentationContext.topLevel
        guard let parent else { return context }
        let carrier = TraceHeaderCarrier(traceparent: parent.context.traceParentHeaderValue, tracestate: parent.state)
        tracer.extract(carrier, into: &context, using: TraceHeaderCarrier.Reader())
        return context
    }

    /// The `traceparent` and `tracestate` of the span of `context`; `nil` when it has none.
    func traceHeaders(of context: InstrumentationContext) -> TraceHeaders? {
        var carrier = TraceHeaderCarrier()
        tracer.inject(context, into: &carrier, using: TraceHeaderCarrier.Writer())
        guard let traceparent = carrier.traceparent else { return nil }
        return TraceHeaders(traceparent: traceparent, tracestate: carrier.tracestate)
    }

    /// `00-TRACEID-SPANID-FLAGS` in lowercase hex, as UTF-8 bytes.
    static func traceparent(traceID: TraceID, spanID: SpanID, sampled: Bool) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 55) { buffer, count in
            let digits: StaticString = "0123456789abcdef"
            func put(_ byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            func hex(_ byte: UInt8) {
                digits.withUTF8Buffer { digits in
                    put(digits[Int(byte >> 4)])
                    put(digits[Int(byte & 0x0f)])
                }
            }
            put(UInt8(ascii: "0"))
            put(UInt8(ascii: "0"))
            put(UInt8(ascii: "-"))
            withUnsafeBytes(of: traceID.bytes) { for byte in $0 { hex(byte) } }
            put(UInt8(ascii: "-"))
            withUnsafeBytes(of: spanID.bytes) { for byte in $0 { hex(byte) } }
            put(UInt8(ascii: "-"))
            hex(sampled ? 1 : 0)
        }
    }
}

/// A span's `traceparent` and `tracestate`, as the tracer reads and writes them.
struct TraceHeaderCarrier {
    var traceparent: String?
    var tracestate: String?

    struct Reader: Extractor {
        func extract(key: String, from carrier: TraceHeaderCarrier) -> String? {
            switch key {
            case TraceHeaders.traceparentName: carrier.traceparent
            case TraceHeaders.tracestateName: carrier.tracestate
            default: nil
            }
        }
    }

    struct Writer: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout TraceHeaderCarrier) {
            switch key {
            case TraceHeaders.traceparentName: carrier.traceparent = value
            case TraceHeaders.tracestateName: carrier.tracestate = value.isEmpty ? nil : value
            default: break
            }
        }
    }
}
