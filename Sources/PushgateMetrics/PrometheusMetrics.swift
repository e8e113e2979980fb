import CoreMetrics
import Prometheus
import PushWorker

/// The Prometheus registry of `pushgate run` and the ``WorkerMetrics`` recording into it, with histogram
/// buckets that fit each duration.
public struct PrometheusMetrics: Sendable {
    /// Buckets of ``MetricName/translationDuration``: 10 µs to 100 ms.
    public static let translationBuckets: [Duration] = [
        .microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250),
        .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(100),
    ]
    /// Buckets of ``MetricName/endToEndLatency``: 5 ms to 5 min.
    public static let latencyBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        .seconds(30), .seconds(60), .seconds(300),
    ]

    /// The registry of every metric but the per-record histograms.
    public let registry: PrometheusCollectorRegistry
    /// The per-record histograms (``MetricName/translationDuration``, ``MetricName/endToEndLatency``),
    /// recorded a batch of records at a time.
    private let histograms: [BatchDurationHistogram]
    /// The worker's metrics, created once here.
    public let worker: WorkerMetrics

    /// Creates a registry of its own (not the process-wide default) and the worker's metrics in it.
    public init() {
        registry = PrometheusCollectorRegistry()
        histograms = [
            BatchDurationHistogram(name: MetricName.translationDuration, buckets: Self.translationBuckets),
            BatchDurationHistogram(name: MetricName.endToEndLatency, buckets: Self.latencyBuckets),
        ]
        worker = WorkerMetrics(
            factory: BatchHistogramFactory(
                registry: PrometheusMetricsFactory(registry: registry), histograms: histograms))
    }

    /// What `/metrics` answers: every metric, in the Prometheus text format.
    public func emit() -> [UInt8] {
        var buffer = registry.emitToBuffer()
        for histogram in histograms { histogram.emit(into: &buffer) }
        return buffer
    }
}

/// The registry's factory, except for the timers that are one of `histograms` (by name).
private struct BatchHistogramFactory: MetricsFactory {
    let registry: PrometheusMetricsFactory
    let histograms: [BatchDurationHistogram]

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        if dimensions.isEmpty, let histogram = histograms.first(where: { $0.name == label }) { return histogram }
        return registry.makeTimer(label: label, dimensions: dimensions)
    }

    func destroyTimer(_ handler: any TimerHandler) {
        if handler is BatchDurationHistogram { return }
        registry.destroyTimer(handler)
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(label: label, dimensions: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeFloatingPointCounter(label: label, dimensions: dimensions)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeMeter(label: label, dimensions: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        registry.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }

    func destroyCounter(_ handler: any CounterHandler) { registry.destroyCounter(handler) }

    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        registry.destroyFloatingPointCounter(handler)
    }

    func destroyMeter(_ handler: any MeterHandler) { registry.destroyMeter(handler) }

    func destroyRecorder(_ handler: any RecorderHandler) { registry.destroyRecorder(handler) }
}
