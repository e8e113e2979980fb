import PushModel
import Testing

@testable import PushgateTracing

@Suite struct TraceHeadersTests {
    let own = TraceHeaders(
        traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", tracestate: "vendor=a")

    private func names(_ headers: [RecordHeader]) -> [String] { headers.map(\.name) }

    private func text(_ headers: [RecordHeader], _ name: String) -> [String] {
        headers.filter { $0.name == name }.map { String(decoding: $0.value ?? [], as: UTF8.self) }
    }

    @Test func replacesTheInputsTraceHeadersAtThePlaceOfTheFirst() {
        let input = [
            RecordHeader(name: "x-before", text: "1"), RecordHeader(name: "traceparent", text: "00-aa-bb-01"),
            RecordHeader(name: "x-middle", text: "2"), RecordHeader(name: "tracestate", text: "old=1"),
            RecordHeader(name: "x-after", text: "3"),
        ]
        let replaced = own.replacing(in: input)
        #expect(names(replaced) == ["x-before", "traceparent", "tracestate", "x-middle", "x-after"])
        #expect(text(replaced, "traceparent") == [own.traceparent])
        #expect(text(replaced, "tracestate") == ["vendor=a"])
        #expect(text(replaced, "x-middle") == ["2"])
    }

    @Test func anInputWithoutTraceparentGetsOneAfterItsHeaders() {
        let input = [RecordHeader(name: "x-only", text: "1"), RecordHeader(name: "pushgate-format", text: "apns")]
        let replaced = TraceHeaders(traceparent: own.traceparent).replacing(in: input)
        #expect(names(replaced) == ["x-only", "pushgate-format", "traceparent"])
        #expect(text(replaced, "traceparent") == [own.traceparent])
    }

    @Test func traceHeadersAreMatchedIgnoringCaseAndRepeatsAreDropped() {
        let input = [
            RecordHeader(name: "TraceParent", text: "00-aa-bb-01"), RecordHeader(name: "x", text: "1"),
            RecordHeader(name: "traceparent", text: "00-cc-dd-01"), RecordHeader(name: "TRACESTATE", value: nil),
        ]
        let replaced = own.replacing(in: input)
        #expect(names(replaced) == ["traceparent", "tracestate", "x"])
        #expect(TraceHeaders.isTraceHeader("tRaCeStAtE"))
        #expect(!TraceHeaders.isTraceHeader("traceparent-x"))
        #expect(!TraceHeaders.isTraceHeader("tracepar3nt"))
    }

    @Test func theFirstValueOfAHeaderIsReadIgnoringCase() {
        let headers = [
            RecordHeader(name: "TRACEPARENT", text: "first"), RecordHeader(name: "traceparent", text: "second"),
        ]
        #expect(TraceHeaders.value(of: "traceparent", in: headers) == "first")
        #expect(TraceHeaders.value(of: "tracestate", in: headers) == nil)
    }
}
