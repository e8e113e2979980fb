import OTelSemanticConventions
import PushModel
import Tracing
import W3CTraceContext

/// The spans of SPEC section 11 for the records pushgate reads and the requests it makes: made with a tracer
/// (swift-otel's when tracing is on), their parents read from and their contexts written to record headers.
public struct RecordTracer: Sendable {
    private let tracer: any Tracer

    /// Spans made with `tracer`.
    public init(tracer: any Tracer) {
        self.tracer = tracer
    }

    /// The trace context a record's `traceparent` and `tracestate` carry (top level when it has none, or
    /// none valid).
    public func context(extractedFrom headers: [RecordHeader]) -> InstrumentationContext {
        var context = InstrumentationContext.topLevel
        tracer.extract(headers, into: &context, using: RecordHeaderExtractor())
        return context
    }

    /// The consumer span `process TOPIC` of one record read from `topic`, a child of its headers' trace
    /// context, with the messaging attributes for Kafka. `key` is written when it is given and valid UTF-8;
    /// `group` when given.
    public func startProcessSpan(
        topic: String, partition: Int32, offset: Int64, group: String?, key: [UInt8]?, headers: [RecordHeader]
    ) -> any Span {
        let span = tracer.startSpan("process \(topic)", context: context(extractedFrom: headers), ofKind: .consumer)
        guard span.isRecording else { return span }
        span.updateAttributes { attributes in
            attributes[OTelAttribute.messaging.system] = "kafka"
            attributes[OTelAttribute.messaging.operation.type] = "process"
            attributes[OTelAttribute.messaging.destination.name] = SpanAttribute.string(topic)
            attributes[OTelAttribute.messaging.destination.partition.id] = SpanAttribute.string(String(partition))
            attributes[OTelAttribute.messaging.kafka.offset] = SpanAttribute.int64(offset)
            if let group { attributes[OTelAttribute.messaging.consumer.group.name] = SpanAttribute.string(group) }
            if let key, let text = String(validating: key, as: UTF8.self) {
                attributes[OTelAttribute.messaging.kafka.message.key] = SpanAttribute.string(text)
            }
        }
        return span
    }

    /// The `traceparent` and `tracestate` of `span`, for the records written on its behalf; `nil` when the
    /// tracer gave it no span context (a sampler that drops every span).
    public func traceHeaders(of span: any Span) -> TraceHeaders? {
        traceHeaders(of: span.context)
    }

    /// The `traceparent` and `tracestate` of `span`, a record's span whose parent is in `parentHeaders`. When the
    /// tracer gave the span no context (a sampler that drops every span), those of an unsampled span of pushgate's
    /// all the same (SPEC section 11): the parent's trace id and `tracestate` (a new trace id without a valid
    /// parent), a new span id, flags `00`.
    public func traceHeaders(of span: any Span, parentHeaders: [RecordHeader]) -> TraceHeaders {
        traceHeaders(of: span) ?? Self.unsampledHeaders(parentHeaders: parentHeaders)
    }

    static func unsampledHeaders(parentHeaders: [RecordHeader]) -> TraceHeaders {
        let parent = TraceHeaders.value(of: TraceHeaders.traceparentName, in: parentHeaders).flatMap { traceparent in
            try? TraceContext(
                traceParentHeaderValue: traceparent,
                traceStateHeaderValue: TraceHeaders.value(of: TraceHeaders.tracestateName, in: parentHeaders))
        }
        let context = TraceContext(
            traceID: parent?.traceID ?? .random(), spanID: .random(), flags: [], state: parent?.state ?? TraceState())
        return TraceHeaders(traceparent: context.traceParentHeaderValue, tracestate: context.traceStateHeaderValue)
    }

    /// The `traceparent` and `tracestate` of the span of `context`; `nil` when it has none.
    public func traceHeaders(of context: InstrumentationContext) -> TraceHeaders? {
        var carrier = TraceHeaderCarrier()
        tracer.inject(context, into: &carrier, using: TraceHeaderCarrier.Writer())
        guard let traceparent = carrier.traceparent else { return nil }
        return TraceHeaders(traceparent: traceparent, tracestate: carrier.tracestate)
    }

    /// The client span `POST` of one request to a push service at `host`:`port`, a child of `context`.
    public func startRequestSpan(host: String, port: Int, context: InstrumentationContext) -> any Span {
        let span = tracer.startSpan("POST", context: context, ofKind: .client)
        guard span.isRecording else { return span }
        span.updateAttributes { attributes in
            attributes[OTelAttribute.http.request.method] = "POST"
            attributes[OTelAttribute.server.address] = SpanAttribute.string(host)
            attributes[OTelAttribute.server.port] = SpanAttribute.int64(Int64(port))
        }
        return span
    }
}

/// The value of a record header, for the tracer's extraction of `traceparent` and `tracestate`.
struct RecordHeaderExtractor: Extractor {
    func extract(key: String, from headers: [RecordHeader]) -> String? {
        TraceHeaders.value(of: key, in: headers)
    }
}

/// Where the tracer writes a span's `traceparent` and `tracestate`.
struct TraceHeaderCarrier {
    var traceparent: String?
    var tracestate: String?

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
