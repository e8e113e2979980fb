import Logging
import ServiceLifecycle

/// pushgate's tracing when ``TracingSettings`` turn it on (SPEC section 11): the spans' queue, the tracer that
/// samples and makes spans into it, and the OTLP/HTTP exporter that posts them, made from the standard `OTEL_*`
/// variables.
public struct TracingBackend: Sendable {
    /// What makes the spans.
    public let tracer: RecordTracer
    /// The exporter's background work: run it in the command's service group, started before the worker and so
    /// stopped after it (what is still queued is exported then, or dropped at the shutdown timeout).
    public let service: any Service

    /// The backend of `settings`; `nil` when tracing is off. Problems of the export (a collector down, spans
    /// rejected) are logged with `logger`; every span dropped (the queue full, a batch that could not be exported)
    /// is counted with `spansDropped`.
    /// - Throws: ``TracingSettingError`` for a certificate file (`OTEL_EXPORTER_OTLP_CERTIFICATE`, `..._CLIENT_*`)
    ///   that cannot be read.
    public static func make(
        _ settings: TracingSettings, logger: Logger, spansDropped: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws(TracingSettingError) -> TracingBackend? {
        guard let export = settings.export else { return nil }
        let queue = SpanExportQueue(
            maxQueueSize: export.maxQueueSize, maxBatchSize: export.maxExportBatchSize, dropped: spansDropped)
        let exporter = OTLPHTTPExporter(
            settings: export, tls: try OTLPHTTPExporter.tlsConfiguration(export), queue: queue,
            request: ExportRequest(serviceName: settings.serviceName, attributes: export.resourceAttributes),
            logger: logger)
        return TracingBackend(tracer: RecordTracer(queue: queue, sampler: TraceSampler(settings)), service: exporter)
    }
}
