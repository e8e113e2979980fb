import Logging
import OTel
import ServiceLifecycle
import Tracing

/// swift-otel's OTLP exporter, batch span processor, sampler and W3C propagator, made from the standard
/// `OTEL_*` variables (SPEC section 11) when ``TracingSettings`` turn tracing on.
public struct TracingBackend: Sendable {
    /// What makes the spans.
    public let tracer: RecordTracer
    /// The exporter's and processor's background work: run it in the command's service group, started
    /// before the worker and so stopped after it (what is still batched is exported then, or dropped at the
    /// shutdown timeout).
    public let service: any Service
    /// Adds `trace_id`, `span_id` and `trace_flags` of the current span to every log line: give it to the log
    /// handler when tracing is on.
    public static var logMetadata: Logger.MetadataProvider { OTel.makeLoggingMetadataProvider() }

    /// The backend of `settings`; `nil` when tracing is off. Problems of the exporter (a collector down, a
    /// batch dropped) are logged with `logger`.
    /// - Throws: swift-otel's configuration error for an `OTEL_*` value it cannot use.
    public static func make(_ settings: TracingSettings, logger: Logger) throws -> TracingBackend? {
        guard settings.isEnabled else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = settings.serviceName
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.diagnosticLogger = .custom(logger)
        // swift-otel's own lines at warning and above (an export that failed); `OTEL_LOG_LEVEL` says otherwise.
        configuration.diagnosticLogLevel = .warning
        // The variables (endpoint, headers, timeouts, sampler, batch sizes) are applied over this by swift-otel.
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        return TracingBackend(tracer: RecordTracer(tracer: backend.factory), service: backend.service)
    }
}
