import PushModel
import Testing

@testable import PushgateTracing

/// A sampled record's span kept for one thread (``RecordSpan``, `run`'s pipeline) is exported exactly as the same span
/// made an object (``TraceSpan``, `deliver`) is.
@Suite struct RecordSpanTests {
    static let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    private static func tracer(queue: SpanExportQueue) throws -> RecordTracer {
        let settings = try TracingSettings.resolve(
            ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"], defaultServiceName: "pushgate-test")
        return RecordTracer(queue: queue, sampler: TraceSampler(settings))
    }

    private static func headers(parent: String?, tracestate: String?) -> [RecordHeader] {
        var headers = [RecordHeader(name: "x", text: "1")]
        if let parent { headers.append(RecordHeader(name: "traceparent", text: parent)) }
        if let tracestate { headers.append(RecordHeader(name: "tracestate", text: tracestate)) }
        return headers
    }

    /// The span of one record, ended as a ``RecordSpan`` and, made from it, as a ``TraceSpan``.
    private static func bothWays(
        parent: String?, tracestate: String?, key: [UInt8]?, formats: [String]?, error: String?
    ) throws -> (value: ExportedSpan, object: ExportedSpan) {
        let queue = SpanExportQueue(dropped: { _ in })
        let tracer = try tracer(queue: queue)
        let headers = headers(parent: parent, tracestate: tracestate)
        var started: RecordSpan?
        let trace = tracer.startRecord(
            topic: "push.unified", partition: 7, offset: 1_234_567, group: "g", key: key, headers: headers,
            places: TraceHeaderPlaces(of: headers), span: &started)
        #expect(trace.isSampled && trace.span == nil, "the span is kept apart")
        let span = try #require(started)
        if let formats {
            span.encodedAttribute = EncodedTraceAttribute(TraceAttributeKey("pushgate.formats"), .strings(formats))
        }
        if let error { span.setError(type: error) }
        let object = TraceSpan(record: span, queue: queue)
        tracer.end(span)
        object.end()
        let spans = ExportedSpan.taken(from: queue)
        try #require(spans.count == 2)
        return (spans[0], spans[1])
    }

    @Test(
        arguments: [
            (Self.parent, "vendor=a", Array("user-1".utf8), ["apns", "fcm"], "invalid_json"),
            (Self.parent, nil, nil, [], nil),
            (nil, nil, Array("ключ".utf8), ["webpush"], nil),
            (nil, "ignored=1", [0xff, 0xfe], nil, "emit_failed"),
        ] as [(String?, String?, [UInt8]?, [String]?, String?)])
    func aRecordSpanIsExportedAsTheTraceSpanMadeFromItIs(
        parent: String?, tracestate: String?, key: [UInt8]?, formats: [String]?, error: String?
    ) throws {
        let (value, object) = try Self.bothWays(
            parent: parent, tracestate: tracestate, key: key, formats: formats, error: error)
        #expect(value.traceID == object.traceID && value.spanID == object.spanID)
        #expect(value.parentSpanID == object.parentSpanID && value.traceState == object.traceState)
        #expect(value.name == "process push.unified" && value.name == object.name)
        #expect(value.kind == 5 && object.kind == 5)
        #expect(value.start == object.start && value.end >= value.start)
        #expect(value.attributes == object.attributes)
        #expect(value.statusCode == object.statusCode && value.flags == object.flags)
        // And what that is, field by field.
        #expect(value.traceID.count == 16 && value.spanID.count == 8)
        #expect(value.flags == (parent == nil ? 0x01 : 0x301))
        #expect(value.parentSpanID.hex == (parent == nil ? "" : "b7ad6b7169203331"))
        if parent != nil { #expect(value.traceID.hex == "0af7651916cd43dd8448eb211c80319c") }
        #expect(value.traceState == (parent == nil ? "" : tracestate ?? ""))
        #expect(value.statusCode == (error == nil ? 0 : 2))
        #expect(value.attributes["error.type"] == error.map { .string($0) })
        #expect(value.attributes["pushgate.formats"] == formats.map { .strings($0) })
        #expect(value.attributes["messaging.destination.partition.id"] == .string("7"))
        #expect(value.attributes["messaging.kafka.offset"] == .int(1_234_567))
        #expect(value.attributes["messaging.destination.name"] == .string("push.unified"))
        #expect(value.attributes["messaging.consumer.group.name"] == .string("g"))
        let validKey = key.flatMap { String(validating: $0, as: UTF8.self) }
        #expect(value.attributes["messaging.kafka.message.key"] == validKey.map { .string($0) })
        let expectedCount = 6 + (validKey == nil ? 0 : 1) + (formats == nil ? 0 : 1) + (error == nil ? 0 : 1)
        #expect(value.attributes.count == expectedCount)
    }

    @Test func anUnsampledRecordHasNoSpan() throws {
        let queue = SpanExportQueue(dropped: { _ in })
        let tracer = try Self.tracer(queue: queue)
        let headers = Self.headers(parent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00", tracestate: nil)
        var span: RecordSpan?
        let trace = tracer.startRecord(
            topic: "t", partition: 0, offset: 0, group: nil, key: nil, headers: headers,
            places: TraceHeaderPlaces(of: headers), span: &span)
        #expect(span == nil && !trace.isSampled && trace.span == nil)
        #expect(ExportedSpan.taken(from: queue).isEmpty)
    }

    @Test(arguments: [
        ("00", false), ("01", true), ("02", false), ("03", true), ("0a", false), ("0b", true), ("ff", true),
        ("fe", false), ("09", true),
    ])
    func isSampledReadsTheFlagsLowestBit(flags: String, sampled: Bool) throws {
        let headers = try #require(
            TraceHeaders(traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-" + flags))
        #expect(headers.isSampled == sampled)
    }
}
