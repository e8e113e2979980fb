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
}
