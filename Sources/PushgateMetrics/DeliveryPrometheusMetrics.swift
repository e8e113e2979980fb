import Prometheus
import PushDelivery

/// The Prometheus registry of `pushgate deliver` and the ``DeliveryMetrics`` recording into it.
public struct DeliveryPrometheusMetrics: Sendable {
    /// Buckets of ``DeliveryMetrics/Name/requestDuration``: 5 ms to 60 s.
    public static let requestBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        .seconds(30), .seconds(60),
    ]

    /// The registry of every delivery metric.
    public let registry: PrometheusCollectorRegistry
    /// The worker's metrics, created once here.
    public let delivery: DeliveryMetrics
    /// The factory of the registry, for the metrics of the device directory.
    public let factory: PrometheusMetricsFactory

    /// Creates a registry of its own and the delivery metrics in it.
    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = [DeliveryMetrics.Name.requestDuration: Self.requestBuckets]
        delivery = DeliveryMetrics(factory: factory)
        self.factory = factory
    }

    /// What `/metrics` answers: every metric, in the Prometheus text format.
    public func emit() -> [UInt8] { registry.emitToBuffer() }
}
