import Foundation
import Logging
import PushModel
import Testing
import W3CTraceContext

@testable import PushgateTracing

/// The record traces ``RecordTracer`` makes, and the spans it queues for export (read back from their OTLP bytes;
/// no exporter runs: nothing is sent).
@Suite struct RecordTracerTests {
    static let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    private static func tracer(
        _ environment: [String: String] = [:], queue: SpanExportQueue = SpanExportQueue(dropped: { _ in })
    ) throws -> RecordTracer {
        let settings = try TracingSettings.resolve(
            environment.merging(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"]) { $1 },
            defaultServiceName: "pushgate-test")
        return RecordTracer(queue: queue, sampler: TraceSampler(settings))
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
        #expect(trace.isSampled)
    }

    @Test func aSampledRecordsSpanIsExportedWithSPEC11sNameKindParentAndAttributes() throws {
        let queue = SpanExportQueue(dropped: { _ in })
        let trace = trace(try Self.tracer(queue: queue), parent: Self.parent, tracestate: "vendor=a")
        trace.span?.setAttribute("pushgate.formats", .strings(["apns", "fcm"]))
        trace.span?.setError(type: "invalid_json")
        #expect(ExportedSpan.taken(from: queue).isEmpty, "a span is queued when it ends")
        trace.end()
        trace.end()
        let spans = ExportedSpan.taken(from: queue)
        #expect(spans.count == 1, "ended once")
        let span = try #require(spans.first)
        let written = try #require(parse(trace.headers.traceparent))
        #expect(span.traceID.hex == "0af7651916cd43dd8448eb211c80319c")
        #expect(span.spanID.hex == written.span)
        #expect(span.parentSpanID.hex == "b7ad6b7169203331")
        #expect(span.traceState == "vendor=a")
        #expect(span.name == "process push.unified" && span.kind == 5)
        #expect(span.start > 1_700_000_000_000_000_000 && span.end >= span.start)
        #expect(span.statusCode == 2)
        #expect(span.flags == 0x301, "sampled, with a remote parent")
        #expect(span.attributes["messaging.system"] == .string("kafka"))
        #expect(span.attributes["messaging.operation.type"] == .string("process"))
        #expect(span.attributes["messaging.destination.name"] == .string("push.unified"))
        #expect(span.attributes["messaging.destination.partition.id"] == .string("3"))
        #expect(span.attributes["messaging.kafka.offset"] == .int(42))
        #expect(span.attributes["messaging.consumer.group.name"] == .string("g"))
        #expect(span.attributes["messaging.kafka.message.key"] == .string("user-1"))
        #expect(span.attributes["pushgate.formats"] == .strings(["apns", "fcm"]))
        #expect(span.attributes["error.type"] == .string("invalid_json"))
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
        unsampled.end()
    }

    @Test func aRequestSpanIsAClientChildOfItsRecordsSpanWithoutTheURL() throws {
        let queue = SpanExportQueue(dropped: { _ in })
        let tracer = try Self.tracer(queue: queue)
        let record = trace(tracer, parent: Self.parent, tracestate: "vendor=a")
        let request = try #require(tracer.startRequestSpan(host: "api.push.apple.com", port: 443, record: record))
        request.setAttribute("http.response.status_code", .int(410))
        request.end()
        record.end()
        let spans = ExportedSpan.taken(from: queue)
        let (post, process) = (try #require(spans.first), try #require(spans.last))
        #expect(post.name == "POST" && post.kind == 3 && process.kind == 5)
        #expect(post.traceID == process.traceID && post.parentSpanID == process.spanID)
        #expect(post.traceState == "vendor=a" && post.flags == 0x101 && post.statusCode == 0)
        #expect(post.attributes["http.request.method"] == .string("POST"))
        #expect(post.attributes["server.address"] == .string("api.push.apple.com"))
        #expect(post.attributes["server.port"] == .int(443))
        #expect(post.attributes["http.response.status_code"] == .int(410))
        #expect(post.attributes.count == 4)
    }

    @Test func traceparentIsWrittenAsW3CTraceContextWritesIt() {
        var generator = SystemRandomNumberGenerator()
        for sampled in [true, false] {
            let (traceID, spanID) = (TraceID.random(using: &generator), SpanID.random(using: &generator))
            let expected = TraceContext(
                traceID: traceID, spanID: spanID, flags: sampled ? .sampled : [], state: TraceState())
            let headers = TraceHeaders(
                traceID: RecordTracer.words(of: traceID), spanID: RecordTracer.word(of: spanID), sampled: sampled)
            #expect(headers.traceparent == expected.traceParentHeaderValue)
            #expect(headers == TraceHeaders(traceparent: expected.traceParentHeaderValue))
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

    @Test func logLinesCarryTheRecordTraceCurrentOnTheThread() throws {
        let tracer = try Self.tracer(["OTEL_TRACES_SAMPLER": "always_off"])
        let (outer, inner) = (trace(tracer, parent: Self.parent), trace(tracer, parent: nil))
        let (outerSpan, innerSpan) = (
            try #require(parse(outer.headers.traceparent)).span, try #require(parse(inner.headers.traceparent)).span
        )
        let here = try #require(ThreadRecordTrace.here)
        var spans: [Logger.Metadata.Value?] = []
        here.set(outer)
        spans.append(RecordTrace.logMetadata.get()["span_id"])
        here.set(inner)
        spans.append(RecordTrace.logMetadata.get()["span_id"])
        // The thread's trace comes before the task's.
        RecordTrace.$current.withValue(outer) { spans.append(RecordTrace.logMetadata.get()["span_id"]) }
        here.clear()
        #expect(spans == [.string(String(outerSpan)), .string(String(innerSpan)), .string(String(innerSpan))])
        #expect(RecordTrace.logMetadata.get().isEmpty, "cleared")
        // Another thread, meanwhile, has no current record trace.
        let elsewhere = MetadataBox()
        here.set(outer)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            elsewhere.metadata = RecordTrace.logMetadata.get()
            done.signal()
        }
        done.wait()
        here.clear()
        #expect(elsewhere.metadata?.isEmpty == true)
    }
}

/// What another thread saw; the semaphore it signals orders its write before the test's read.
private final class MetadataBox: @unchecked Sendable {
    var metadata: Logger.Metadata?
}
