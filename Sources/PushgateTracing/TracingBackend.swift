import Foundation
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// swift-otel's OTLP exporter, batch span processor and W3C propagator, made from the standard `OTEL_*`
/// variables (SPEC section 11) when ``TracingSettings`` turn tracing on. Sampling is pushgate's
/// (``TraceSampler``, from the same variables): swift-otel records every span it is asked to make.
public struct TracingBackend: Sendable {
    /// What makes the spans.
    public let tracer: RecordTracer
    /// The exporter's and processor's background work: run it in the command's service group, started
    /// before the worker and so stopped after it (what is still batched is exported then, or dropped at the
    /// shutdown timeout).
    public let service: any Service

    /// The backend of `settings`; `nil` when tracing is off. Problems of the exporter (a collector down, a
    /// batch dropped) are logged with `logger`; every span dropped (the queue full, a batch that could not be
    /// exported) is counted with `spansDropped`.
    ///
    /// Call it before the process starts threads of its own: when `OTEL_TRACES_SAMPLER` is set, it is set to
    /// `always_on` in the process's environment, where swift-otel reads it (pushgate has decided already).
    /// - Throws: swift-otel's configuration error for an `OTEL_*` value it cannot use.
    public static func make(
        _ settings: TracingSettings, logger: Logger, spansDropped: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws -> TracingBackend? {
        guard settings.isEnabled else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = settings.serviceName
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.sampler = .alwaysOn
        configuration.diagnosticLogger = .custom(
            Logger(label: logger.label) { _ in DroppedSpanCounter(forwardingTo: logger.handler, count: spansDropped) })
        // swift-otel's own lines at warning and above (an export that failed); `OTEL_LOG_LEVEL` says otherwise.
        configuration.diagnosticLogLevel = .warning
        // The variables (endpoint, headers, timeouts, batch sizes) are applied over this by swift-otel; the
        // sampler is not swift-otel's to apply.
        if let sampler = getenv("OTEL_TRACES_SAMPLER"), String(cString: sampler) != "always_on" {
            setenv("OTEL_TRACES_SAMPLER", "always_on", 1)
        }
        if getenv("OTEL_TRACES_SAMPLER_ARG") != nil { unsetenv("OTEL_TRACES_SAMPLER_ARG") }
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        return TracingBackend(
            tracer: RecordTracer(tracer: backend.factory, sampler: TraceSampler(settings)), service: backend.service)
    }
}
