import PushModel
import Testing
import W3CTraceContext

@testable import PushgateTracing

@Suite struct TraceHeadersTests {
    let own = TraceHeaders(
        traceID: (0x0af7_6519_16cd_43dd, 0x8448_eb21_1c80_319c), spanID: 0xb7ad_6b71_6920_3331, sampled: true,
        tracestate: "vendor=a")

    private func names(_ headers: [RecordHeader]) -> [String] { headers.map(\.name) }

    private func text(_ headers: [RecordHeader], _ name: String) -> [String] {
        headers.filter { $0.name == name }.map { String(decoding: $0.value ?? [], as: UTF8.self) }
    }

    @Test func theTraceparentTextIsWrittenFromTheIds() {
        #expect(own.traceparent == "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        #expect(own.traceparentBytes == Array(own.traceparent.utf8))
        let unsampled = TraceHeaders(traceID: (1, 0xffff_ffff_ffff_ffff), spanID: 0x10, sampled: false)
        #expect(unsampled.traceparent == "00-0000000000000001ffffffffffffffff-0000000000000010-00")
        #expect(unsampled != TraceHeaders(traceID: (1, 0xffff_ffff_ffff_ffff), spanID: 0x10, sampled: true))
        #expect(TraceHeaders(traceparent: "00-short-01") == nil)
        #expect(own.list.map(\.name) == ["traceparent", "tracestate"])
    }

    /// A producer's `traceparent`: as long as pushgate's, overwritten in place.
    static let producers = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    @Test func replacingInPlaceGivesWhatANewListGives() {
        let unsampled = TraceHeaders(traceID: (1, 2), spanID: 3, sampled: false)
        let cases: [(TraceHeaders, [RecordHeader])] = [
            (unsampled, [RecordHeader(name: "x", text: "1")]),
            (unsampled, [RecordHeader(name: "x", text: "1"), RecordHeader(name: "TraceParent", text: "00-aa-bb-01")]),
            (unsampled, [RecordHeader(name: "traceparent", text: "a"), RecordHeader(name: "tracestate", text: "b")]),
            (own, [RecordHeader(name: "traceparent", text: "a"), RecordHeader(name: "tracestate", text: "b")]),
            (own, [RecordHeader(name: "traceparent", text: "a"), RecordHeader(name: "x", text: "1")]),
            (
                own,
                [
                    RecordHeader(name: "traceparent", text: "a"), RecordHeader(name: "x", text: "1"),
                    RecordHeader(name: "tracestate", text: "b"),
                ]
            ),
            (own, []),
            (unsampled, [RecordHeader(name: "TraceParent", text: Self.producers), RecordHeader(name: "x", text: "1")]),
            (
                own,
                [RecordHeader(name: "traceparent", text: Self.producers), RecordHeader(name: "tracestate", text: "b")]
            ),
        ]
        for (trace, input) in cases {
            let kept = input.map { RecordHeader(name: $0.name, value: $0.value.map { Array($0) }) }
            var headers = input
            trace.replace(in: &headers)
            #expect(headers == trace.replacing(in: input), "\(input.map(\.name))")
            #expect(input == kept, "a list sharing the input's bytes is left as it was")
            #expect(headers.filter { $0.name == "traceparent" }.map(\.value) == [trace.traceparentBytes[...]])
        }
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

    @Test func anInputWithoutTraceparentGetsOneAfterItsHeaders() throws {
        let input = [RecordHeader(name: "x-only", text: "1"), RecordHeader(name: "pushgate-format", text: "apns")]
        let replaced = try #require(TraceHeaders(traceparent: own.traceparent)).replacing(in: input)
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

    @Test func theFirstTraceparentIsFoundIgnoringCase() {
        let headers = [
            RecordHeader(name: "TRACEPARENT", text: "first"), RecordHeader(name: "traceparent", text: "second"),
        ]
        let places = TraceHeaderPlaces(of: headers)
        #expect(places.traceparent == 0 && places.tracestate == nil && places.count == 2)
    }
}

/// `traceparent` read from its bytes, as W3C Trace Context section 3.2 defines it.
@Suite struct TraceParentTests {
    private func parse(_ text: String) -> TraceParent? { TraceParent(ArraySlice(text.utf8)) }

    @Test func theFieldsOfAValidTraceparentAreRead() throws {
        let parsed = try #require(parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"))
        let expected = try TraceContext(
            traceParentHeaderValue: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        #expect(parsed.traceID == expected.traceID && parsed.spanID == expected.spanID && parsed.sampled)
        #expect(parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-02")?.sampled == false)
        #expect(parse("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra") != nil, "a later version")
    }

    @Test func randomIdsAreReadAsW3CTraceContextReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let written = TraceContext(
                traceID: .random(using: &generator), spanID: .random(using: &generator), flags: .sampled,
                state: TraceState())
            let parsed = try #require(parse(written.traceParentHeaderValue))
            #expect(parsed.traceID == written.traceID && parsed.spanID == written.spanID)
        }
    }

    @Test func everyCharacterThatIsNotLowercaseHexIsRefusedAtEveryPlaceOfTheIds() {
        let valid = Array("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01".utf8)
        for place in Array(3..<35) + Array(36..<52) {
            for character: UInt8 in [0x2f, 0x3a, 0x40, 0x41, 0x46, 0x47, 0x60, 0x67, 0x7f, 0x80, 0xb0, 0xff] {
                var bytes = valid
                bytes[place] = character
                #expect(TraceParent(bytes[...]) == nil, "\(character) at \(place)")
            }
        }
    }

    @Test func invalidValuesAreRefused() {
        for text in [
            "", "not-a-traceparent",
            "00-00000000000000000000000000000000-b7ad6b7169203331-01",  // zero trace id
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",  // zero parent id
            "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",  // version ff
            "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",  // uppercase
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra",  // version 00 is 55 bytes
            "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x",
            "00_0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0g",
        ] {
            #expect(parse(text) == nil, "\(text)")
        }
    }
}
