import Logging
import PushModel
import Testing
import Tracing
import W3CTraceContext

@testable import PushgateTracing

/// The record traces ``RecordTracer`` makes, with swift-otel's tracer (its exporter is never run: nothing is sent).
@Suite struct RecordTracerTests {
    static let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    private static func tracer(_ environment: [String: String] = [:]) throws -> RecordTracer {
        let settings = try TracingSettings.resolve(
            environment.merging(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"]) { $1 },
            defaultServiceName: "pushgate-test")
        return try #require(try TracingBackend.make(settings, logger: Logger(label: "test"))).tracer
    }

    private func parse(_ traceparent: String) -> (trace: Substring, span: Substring, flags: Substring)? {
        let parts = traceparent.split(separator: "-")
        guard parts.count == 4, parts[0] == "00", parts[1].count == 32, parts[2].count == 16 else { return nil }
        return (parts[1], parts[2], parts[3])
    }

    private func trace(
        _ tracer: RecordTracer, parent: String?, tracestate: String? = nil
    ) -> RecordTrace {
        var headers = [RecordHeader(name: "x", text: "1")]
        if let parent { headers.append(RecordHeader(name: "traceparent", text: parent)) }
        if let tracestate { headers.append(RecordHeader(name: "tracestate", text: tracestate)) }
        return tracer.startRecord(
            topic: "push.unified", partition: 3, offset: 42, group: "g", key: Array("user-1".utf8), headers: headers)
    }

    @Test func aRecordsSpanIsAChildOfItsTraceparent() throws {
        let trace = trace(try Self.tracer(), parent: Self.parent, tracestate: "vendor=a")
        defer { trace.end() }
        let written = try #require(parse(trace.headers.traceparent))
        #expect(written.trace == "0af7651916cd43dd8448eb211c80319c")
        #expect(written.span != "b7ad6b7169203331")
        #expect(written.flags == "01")
        #expect(trace.headers.tracestate == "vendor=a")
        #expect(trace.isSampled && trace.span?.isRecording == true)
    }

    @Test func anUnsampledParentGivesNoSpanButIdsOfItsOwnWithFlags00() throws {
        let trace = trace(try Self.tracer(), parent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00")
        let written = try #require(parse(trace.headers.traceparent))
        #expect(written.trace == "0af7651916cd43dd8448eb211c80319c")
        #expect(written.span != "b7ad6b7169203331" && written.span != String(repeating: "0", count: 16))
        #expect(written.flags == "00")
        #expect(!trace.isSampled)
    }

    @Test func aRecordWithoutValidTraceparentStartsATrace() throws {
        let tracer = try Self.tracer()
        for parent in [nil, "not-a-traceparent", "00-00000000000000000000000000000000-b7ad6b7169203331-01"] {
            let trace = trace(tracer, parent: parent)
            defer { trace.end() }
            let written = try #require(parse(trace.headers.traceparent))
            #expect(written.trace != String(repeating: "0", count: 32))
            #expect(written.flags == "01" && trace.isSampled)
        }
    }

    /// W3C Trace Context: a `tracestate` that cannot be parsed is dropped, its `traceparent` is kept.
    @Test func anInvalidTracestateIsDroppedAndTheParentKept() throws {
        let trace = trace(try Self.tracer(), parent: Self.parent, tracestate: "not a list member")
        defer { trace.end() }
        #expect(parse(trace.headers.traceparent)?.trace == "0af7651916cd43dd8448eb211c80319c")
        #expect(trace.headers.tracestate == nil)
    }

    /// A sampler that drops every span (`always_off`): the records still get an unsampled span id of pushgate's,
    /// continuing the parent's trace (SPEC section 11), a new one each time.
    @Test func alwaysOffStillGivesEveryRecordAnUnsampledTraceparentOfItsOwn() throws {
        let tracer = try Self.tracer(["OTEL_TRACES_SAMPLER": "always_off"])
        let first = trace(tracer, parent: Self.parent, tracestate: "vendor=a")
        let fields = try #require(parse(first.headers.traceparent))
        #expect(fields.trace == "0af7651916cd43dd8448eb211c80319c")
        #expect(fields.span != "b7ad6b7169203331" && fields.flags == "00")
        #expect(first.headers.tracestate == "vendor=a" && !first.isSampled)
        let again = trace(tracer, parent: Self.parent, tracestate: "vendor=a")
        #expect(again.headers.traceparent != first.headers.traceparent, "every span has an id of its own")
        for parent in [nil, "not-a-traceparent"] {
            let started = try #require(parse(trace(tracer, parent: parent).headers.traceparent))
            #expect(started.trace != String(repeating: "0", count: 32) && started.flags == "00")
        }
    }

    @Test func requestSpansAreMadeForSampledRecordsOnly() throws {
        let tracer = try Self.tracer()
        let sampled = trace(tracer, parent: Self.parent)
        let request = try #require(tracer.startRequestSpan(host: "api.push.apple.com", port: 443, record: sampled))
        request.end()
        sampled.end()
        let unsampled = trace(tracer, parent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00")
        #expect(tracer.startRequestSpan(host: "api.push.apple.com", port: 443, record: unsampled) == nil)
    }

    @Test func traceparentIsWrittenAsW3CTraceContextWritesIt() {
        var generator = SystemRandomNumberGenerator()
        for sampled in [true, false] {
            let (traceID, spanID) = (TraceID.random(using: &generator), SpanID.random(using: &generator))
            let expected = TraceContext(
                traceID: traceID, spanID: spanID, flags: sampled ? .sampled : [], state: TraceState())
            #expect(
                RecordTracer.traceparent(traceID: traceID, spanID: spanID, sampled: sampled)
                    == Array(expected.traceParentHeaderValue.utf8))
        }
    }

    @Test func logLinesCarryTheCurrentRecordTracesIds() throws {
        let trace = trace(try Self.tracer(["OTEL_TRACES_SAMPLER": "always_off"]), parent: Self.parent)
        let fields = try #require(parse(trace.headers.traceparent))
        #expect(RecordTrace.logMetadata.get().isEmpty, "no record trace is current")
        let metadata = RecordTrace.$current.withValue(trace) { RecordTrace.logMetadata.get() }
        #expect(metadata["trace_id"] == .string(String(fields.trace)))
        #expect(metadata["span_id"] == .string(String(fields.span)))
        #expect(metadata["trace_flags"] == "00")
    }
}
