import PushModel
import Testing
import W3CTraceContext

@testable import PushgateTracing

/// Where a record's trace headers are, noted while its header list is made, and what a record's trace does with
/// them: reads its parent there and writes its own headers in their place.
@Suite struct TraceHeaderPlacesTests {
    private func list(_ names: [String]) -> [RecordHeader] {
        names.map { RecordHeader(name: $0, text: "v") }
    }

    @Test func tracePlacesAreFoundIgnoringCaseAndOnlyForTheTwoNames() {
        // Names of the same lengths as the two that are not them are passed over.
        let headers = list(["x-request1", "TraceParent", "tracestatx", "traceparenz", "TRACESTATE", "traceparent"])
        let places = TraceHeaderPlaces(of: headers)
        #expect(places.traceparent == 1)
        #expect(places.tracestate == 4)
        #expect(places.first == 1 && places.last == 5 && places.count == 3)
        #expect(!places.areSideBySide)
    }

    @Test func notingHeaderByHeaderGivesWhatTheListGives() {
        let lists = [
            [], ["a"], ["traceparent"], ["tracestate", "traceparent"], ["a", "traceparent", "tracestate", "b"],
            ["traceparent", "a", "tracestate"], ["Tracestate", "x", "Tracestate"],
        ]
        for names in lists {
            var noted = TraceHeaderPlaces()
            for (index, name) in names.enumerated() { noted.note(name, at: index) }
            #expect(noted == TraceHeaderPlaces(of: list(names)), "\(names)")
        }
        #expect(TraceHeaderPlaces(of: list(["a", "b"])).first == nil)
        #expect(TraceHeaderPlaces(of: list(["tracestate", "traceparent"])).areSideBySide)
        #expect(!TraceHeaderPlaces(of: list(["traceparent", "a", "tracestate"])).areSideBySide)
    }

    @Test func theParentIsReadAtItsPlace() throws {
        let producers = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let headers = [
            RecordHeader(name: "traceparent", text: "not one"), RecordHeader(name: "x", text: "1"),
            RecordHeader(name: "TraceParent", text: producers),
        ]
        // The first `traceparent` counts: an invalid one means no parent, as before.
        #expect(RecordTracer.parent(in: headers) == nil)
        let second = Array(headers[1...])
        let parent = try #require(RecordTracer.parent(in: second, at: TraceHeaderPlaces(of: second)))
        let expected = try TraceContext(traceParentHeaderValue: producers)
        #expect(parent.traceID == expected.traceID && parent.spanID == expected.spanID)
        #expect(parent.sampled)
        #expect(RecordTracer.parent(in: second, at: TraceHeaderPlaces()) == nil, "no place, no parent")
    }

    @Test func aChildsHeadersAreWrittenFromItsParentsTextAsFromItsIds() throws {
        var generator = SystemRandomNumberGenerator()
        for index in 0..<100 {
            let written = TraceContext(
                traceID: .random(using: &generator), spanID: .random(using: &generator),
                flags: index % 2 == 0 ? .sampled : [], state: TraceState())
            // A later version's `traceparent` (with more after a `-`) gives a version 00 child.
            let text =
                index % 3 == 0
                ? "01" + written.traceParentHeaderValue.dropFirst(2) + "-more" : written.traceParentHeaderValue
            let parent = try #require(TraceParent(ArraySlice(text.utf8)), "\(text)")
            let span = UInt64.random(in: 1...UInt64.max, using: &generator)
            let sampled = index % 4 < 2
            let child = TraceHeaders(parent: parent, spanID: span, sampled: sampled, tracestate: "a=1")
            let fromIds = TraceHeaders(
                traceID: RecordTracer.words(of: written.traceID), spanID: span, sampled: sampled, tracestate: "a=1")
            #expect(child == fromIds, "\(text)")
            #expect(child.traceparent.hasPrefix("00-\(written.traceID)-"))
        }
    }

    @Test func theSamplerDecidesForAParentAsForItsIds() throws {
        var generator = SystemRandomNumberGenerator()
        for name in [
            "always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off",
            "parentbased_traceidratio",
        ] {
            let sampler = TraceSampler(
                try TracingSettings.resolve(
                    [
                        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9", "OTEL_TRACES_SAMPLER": name,
                        "OTEL_TRACES_SAMPLER_ARG": "0.5",
                    ], defaultServiceName: "test"))
            for index in 0..<200 {
                let written = TraceContext(
                    traceID: .random(using: &generator), spanID: .random(using: &generator),
                    flags: index % 2 == 0 ? .sampled : [], state: TraceState())
                let parent = try #require(TraceParent(ArraySlice(written.traceParentHeaderValue.utf8)))
                #expect(
                    sampler.isSampled(parent: parent)
                        == sampler.isSampled(traceID: written.traceID, parentSampled: index % 2 == 0), "\(name)")
            }
        }
    }
}
