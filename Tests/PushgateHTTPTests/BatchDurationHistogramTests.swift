import Prometheus
import PushWorker
import Testing

@testable import PushgateMetrics

/// The worker's per-record histograms, recorded a batch at a time, emit what swift-prometheus's own
/// histogram emits for the same durations.
@Suite struct BatchDurationHistogramTests {
    /// Durations around the buckets: zero, below the first bound, exactly on bounds (counted in that
    /// bucket), between bounds, above every bound, and negative (counted in every bucket, as
    /// swift-prometheus does).
    static let durations: [Int64] = [
        0, 9_999, 10_000, 10_001, 24_999, 250_000, 999_999, 1_000_000, 2_500_000, 99_999_999, 100_000_000,
        100_000_001, 5_000_000_000, -5, 42_424_242,
    ]

    @Test(arguments: [
        (MetricName.translationDuration, PrometheusMetrics.translationBuckets),
        (MetricName.endToEndLatency, PrometheusMetrics.latencyBuckets),
    ])
    func emitsWhatSwiftPrometheusEmits(name: String, buckets: [Duration]) {
        // The histogram swift-prometheus's factory makes for the timer, as `pushgate run` had it.
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = [name: buckets]
        let reference = factory.makeTimer(label: name, dimensions: [])
        for duration in Self.durations { reference.recordNanoseconds(duration) }

        let batched = BatchDurationHistogram(name: name, buckets: buckets)
        batched.recordNanoseconds(batch: Array(Self.durations.prefix(7)))
        batched.recordNanoseconds(batch: [])
        for duration in Self.durations.dropFirst(7) { batched.recordNanoseconds(duration) }
        var emitted: [UInt8] = []
        batched.emit(into: &emitted)

        #expect(String(decoding: emitted, as: UTF8.self) == registry.emitToString())
    }
}
