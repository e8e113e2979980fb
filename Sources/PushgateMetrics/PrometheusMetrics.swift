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

    /// What `/metrics` emits.
    public let registry: PrometheusCollectorRegistry
    /// The worker's metrics, created once here.
    public let worker: WorkerMetrics

    /// Creates a registry of its own (not the process-wide default) and the worker's metrics in it.
    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = [
            MetricName.translationDuration: Self.translationBuckets,
            MetricName.endToEndLatency: Self.latencyBuckets,
        ]
        worker = WorkerMetrics(factory: factory)
    }
}
