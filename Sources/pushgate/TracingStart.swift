import ArgumentParser
import CoreMetrics
import Foundation
import Logging
import Prometheus
import PushgateTracing
import ServiceLifecycle

/// How `run` and `deliver` start tracing (SPEC section 11) from the process's `OTEL_*` variables.
enum TracingStart {
    /// The tracing settings of this process's environment.
    /// - Throws: `ValidationError` naming an `OTEL_*` variable pushgate cannot use.
    static func settings(defaultServiceName: String) throws(ValidationError) -> TracingSettings {
        do {
            return try TracingSettings.resolve(
                ProcessInfo.processInfo.environment, defaultServiceName: defaultServiceName)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The log lines' metadata for `settings`: the current record trace's ids when tracing is on.
    static func logMetadata(_ settings: TracingSettings) -> Logger.MetadataProvider? {
        settings.isEnabled ? RecordTrace.logMetadata : nil
    }

    /// The name of the counter of spans dropped: the batch queue full, or a batch the collector did not take.
    static let spansDroppedMetric = "pushgate_trace_spans_dropped_total"

    /// The tracer of `settings` (`nil`: tracing is off) and the exporter's service, to run first in the command's
    /// group (so that it stops last, exporting what the worker's last spans left, for at most a tenth of
    /// `shutdownTimeout` and 2 s); the choice logged, the spans dropped counted in `registry`.
    /// - Throws: `ValidationError` for a certificate file that cannot be read.
    static func backend(
        _ settings: TracingSettings, shutdownTimeout: Duration, registry: PrometheusCollectorRegistry, logger: Logger
    ) throws -> (tracer: RecordTracer, service: ServiceGroupConfiguration.ServiceConfiguration)? {
        logger.info("tracing: \(settings.summary)")
        guard settings.isEnabled else { return nil }
        let dropped = Counter(label: spansDroppedMetric, factory: PrometheusMetricsFactory(registry: registry))
        let made: TracingBackend?
        do {
            made = try TracingBackend.make(settings, logger: logger, spansDropped: { dropped.increment(by: $0) })
        } catch {
            throw ValidationError(error.message)
        }
        guard let backend = made else { return nil }
        // A tracing exporter that stops (it does not, but for its own errors) never stops the worker.
        let service = ServiceGroupConfiguration.ServiceConfiguration(
            service: GraceBoundedService(service: backend.service, grace: min(.seconds(2), shutdownTimeout / 10)),
            successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore,
            serviceName: ServiceName.tracing)
        return (backend.tracer, service)
    }
}
