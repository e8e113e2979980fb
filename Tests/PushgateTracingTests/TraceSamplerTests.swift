import Testing
import W3CTraceContext

@testable import PushgateTracing

/// pushgate's decision for OpenTelemetry's standard samplers (`OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`).
@Suite struct TraceSamplerTests {
    private func sampler(_ name: String, _ argument: String? = nil) throws -> TraceSampler {
        var environment = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9", "OTEL_TRACES_SAMPLER": name]
        environment["OTEL_TRACES_SAMPLER_ARG"] = argument
        return TraceSampler(try TracingSettings.resolve(environment, defaultServiceName: "test"))
    }

    private func traceIDs(_ count: Int) -> [TraceID] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in TraceID.random(using: &generator) }
    }

    @Test func parentBasedSamplersFollowTheParentsFlag() throws {
        let id = TraceID.random()
        for name in ["parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"] {
            let sampler = try sampler(name, "0")
            #expect(sampler.isSampled(traceID: id, parentSampled: true), "\(name)")
            #expect(!sampler.isSampled(traceID: id, parentSampled: false), "\(name)")
        }
        #expect(try sampler("parentbased_always_on").isSampled(traceID: id, parentSampled: nil))
        #expect(try !sampler("parentbased_always_off").isSampled(traceID: id, parentSampled: nil))
    }

    @Test func samplersThatAreNotParentBasedIgnoreTheParent() throws {
        let id = TraceID.random()
        #expect(try sampler("always_on").isSampled(traceID: id, parentSampled: false))
        #expect(try !sampler("always_off").isSampled(traceID: id, parentSampled: true))
        #expect(try !sampler("traceidratio", "0").isSampled(traceID: id, parentSampled: true))
        #expect(try sampler("traceidratio", "1").isSampled(traceID: id, parentSampled: false))
    }

    @Test func theRatioSamplesThatShareOfTracesTheSameWayEachTime() throws {
        let sampler = try sampler("parentbased_traceidratio", "0.25")
        let ids = traceIDs(20_000)
        let sampled = ids.filter { sampler.isSampled(traceID: $0, parentSampled: nil) }
        #expect((4_500...5_500).contains(sampled.count), "\(sampled.count) of 20000 at 0.25")
        #expect(sampled.allSatisfy { sampler.isSampled(traceID: $0, parentSampled: nil) }, "the same trace, the same")
        let one = try self.sampler("traceidratio", "0.01")
        let few = ids.filter { one.isSampled(traceID: $0, parentSampled: nil) }.count
        #expect((120...280).contains(few), "\(few) of 20000 at 0.01")
    }

    @Test func theDecisionReadsTheTraceIdsLastEightBytes() throws {
        let sampler = try sampler("traceidratio", "0.5")
        let low = try TraceContext(traceParentHeaderValue: "00-ffffffffffffffff7fffffffffffffff-0000000000000001-01")
        let high = try TraceContext(traceParentHeaderValue: "00-00000000000000008000000000000000-0000000000000001-01")
        #expect(sampler.isSampled(traceID: low.traceID, parentSampled: nil))
        #expect(!sampler.isSampled(traceID: high.traceID, parentSampled: nil))
    }
}
