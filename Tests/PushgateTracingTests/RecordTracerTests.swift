import Logging
import PushModel
import Testing
import Tracing

@testable import PushgateTracing

/// The spans swift-otel's tracer makes through ``RecordTracer`` (its exporter is never run: nothing is sent).
@Suite struct RecordTracerTests {
    let tracer: RecordTracer

    init() throws {
        let settings = try TracingSettings.resolve(
            ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"], defaultServiceName: "pushgate-test")
        let made = try TracingBackend.make(settings, logger: Logger(label: "test"))
        let backend = try #require(made)
        tracer = backend.tracer
    }

    private func parse(_ traceparent: String) -> (trace: Substring, span: Substring, flags: Substring)? {
        let parts = traceparent.split(separator: "-")
        guard parts.count == 4, parts[0] == "00", parts[1].count == 32, parts[2].count == 16 else { return nil }
        return (parts[1], parts[2], parts[3])
    }

    private func span(parent: String?, tracestate: String? = nil) -> any Span {
        var headers = [RecordHeader(name: "x", text: "1")]
        if let parent { headers.append(RecordHeader(name: "traceparent", text: parent)) }
        if let tracestate { headers.append(RecordHeader(name: "tracestate", text: tracestate)) }
        return tracer.startProcessSpan(
            topic: "push.unified", partition: 3, offset: 42, group: "g", key: Array("user-1".utf8), headers: headers)
    }

    @Test func aRecordsSpanIsAChildOfItsTraceparent() throws {
        let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
        let span = span(parent: parent, tracestate: "vendor=a")
        defer { span.end() }
        let headers = try #require(tracer.traceHeaders(of: span))
        let written = try #require(parse(headers.traceparent))
        #expect(written.trace == "0af7651916cd43dd8448eb211c80319c")
        #expect(written.span != "b7ad6b7169203331")
        #expect(written.flags == "01")
        #expect(headers.tracestate == "vendor=a")
        #expect(span.isRecording)
    }

    @Test func anUnsampledParentGivesASpanOfItsOwnWithFlags00() throws {
        let span = span(parent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00")
        defer { span.end() }
        let headers = try #require(tracer.traceHeaders(of: span))
        let written = try #require(parse(headers.traceparent))
        #expect(written.trace == "0af7651916cd43dd8448eb211c80319c")
        #expect(written.span != "b7ad6b7169203331")
        #expect(written.flags == "00")
        #expect(!span.isRecording)
    }

    @Test func aRecordWithoutValidTraceparentStartsATrace() throws {
        for parent in [nil, "not-a-traceparent"] {
            let span = span(parent: parent)
            defer { span.end() }
            let headers = try #require(tracer.traceHeaders(of: span))
            let written = try #require(parse(headers.traceparent))
            #expect(written.trace != String(repeating: "0", count: 32))
            #expect(written.flags == "01")
        }
    }

    /// A sampler that drops every span (`always_off`) makes spans without a context: the records still get an
    /// unsampled span of pushgate's, continuing the parent's trace (SPEC section 11).
    @Test func aSpanWithoutContextStillGivesAnUnsampledTraceparentOfItsOwn() throws {
        let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
        let headers = [
            RecordHeader(name: "traceparent", text: parent), RecordHeader(name: "tracestate", text: "vendor=a"),
        ]
        let span = NoOpTracer().startSpan("process push.unified", context: .topLevel, ofKind: .consumer)
        #expect(tracer.traceHeaders(of: span) == nil, "the span has no context")
        let written = tracer.traceHeaders(of: span, parentHeaders: headers)
        let fields = try #require(parse(written.traceparent))
        #expect(fields.trace == "0af7651916cd43dd8448eb211c80319c")
        #expect(fields.span != "b7ad6b7169203331" && fields.span != String(repeating: "0", count: 16))
        #expect(fields.flags == "00")
        #expect(written.tracestate == "vendor=a")
        let again = tracer.traceHeaders(of: span, parentHeaders: headers)
        #expect(again.traceparent != written.traceparent, "every span has an id of its own")

        for parentHeaders in [[], [RecordHeader(name: "traceparent", text: "not-a-traceparent")]] {
            let started = try #require(parse(tracer.traceHeaders(of: span, parentHeaders: parentHeaders).traceparent))
            #expect(started.trace != String(repeating: "0", count: 32) && started.flags == "00")
        }
    }
}
