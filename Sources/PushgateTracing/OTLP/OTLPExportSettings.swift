import Foundation

/// Where and how spans are exported, from the standard `OTEL_EXPORTER_OTLP_*` and `OTEL_BSP_*` variables (the
/// OpenTelemetry SDK environment variables and OTLP exporter specifications). A `_TRACES_` variable wins over its
/// general form.
public struct OTLPExportSettings: Sendable, Equatable {
    /// The URL spans are posted to: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, else
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` with `v1/traces` added.
    public var url: String
    /// `OTEL_EXPORTER_OTLP_HEADERS`: request headers (an API key), never logged.
    public var headers: [String: String] = [:]
    /// `OTEL_EXPORTER_OTLP_TIMEOUT`: the most one export request may take (default 10 s).
    public var timeout: Duration = .seconds(10)
    /// `OTEL_EXPORTER_OTLP_COMPRESSION=gzip`.
    public var gzip = false
    /// `OTEL_EXPORTER_OTLP_CERTIFICATE`: a PEM file of the CAs trusted for an `https` collector (default the system's).
    public var certificate: String?
    /// `OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE` and `OTEL_EXPORTER_OTLP_CLIENT_KEY`: PEM files for mutual TLS.
    public var clientCertificate: String?
    public var clientKey: String?
    /// `OTEL_RESOURCE_ATTRIBUTES`: the resource's attributes besides `service.name`.
    public var resourceAttributes: [String: String] = [:]
    /// `OTEL_BSP_SCHEDULE_DELAY`: the longest a span waits in a batch that is not full (default 5 s).
    public var scheduleDelay: Duration = .seconds(5)
    /// `OTEL_BSP_MAX_QUEUE_SIZE`: the most spans waiting; more are dropped and counted (default 2048).
    public var maxQueueSize = 2048
    /// `OTEL_BSP_MAX_EXPORT_BATCH_SIZE`: the most spans in one request (default 512).
    public var maxExportBatchSize = 512
    /// `OTEL_BSP_EXPORT_TIMEOUT`: the most time one batch's export takes, retries included (default 30 s).
    public var exportTimeout: Duration = .seconds(30)

    /// The settings of `environment` for spans sent to `endpoint`, the traces URL when `isTracesEndpoint`, the
    /// collector's base URL otherwise.
    /// - Throws: ``TracingSettingError`` naming a variable whose value cannot be used.
    static func resolve(
        _ value: (String) -> String?, endpoint: String, isTracesEndpoint: Bool
    ) throws(TracingSettingError) -> OTLPExportSettings {
        func exporter(_ name: String) -> (name: String, value: String)? {
            let specific = "OTEL_EXPORTER_OTLP_TRACES_\(name)"
            if let text = value(specific) { return (specific, text) }
            let general = "OTEL_EXPORTER_OTLP_\(name)"
            return value(general).map { (general, $0) }
        }
        var settings = OTLPExportSettings(
            url: isTracesEndpoint ? endpoint : endpoint + (endpoint.hasSuffix("/") ? "" : "/") + "v1/traces")
        guard let scheme = URL(string: settings.url)?.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else {
            throw TracingSettingError("\(settings.url) is not an http or https URL (OTEL_EXPORTER_OTLP_ENDPOINT)")
        }
        if let (name, text) = exporter("HEADERS") { settings.headers = try pairs(text, variable: name) }
        if let (name, text) = exporter("TIMEOUT") { settings.timeout = try milliseconds(text, variable: name) }
        if let (name, text) = exporter("COMPRESSION") {
            switch text.lowercased() {
            case "gzip": settings.gzip = true
            case "none": settings.gzip = false
            default: throw TracingSettingError("\(name)=\(text) is not gzip or none")
            }
        }
        settings.certificate = exporter("CERTIFICATE")?.value
        settings.clientCertificate = exporter("CLIENT_CERTIFICATE")?.value
        settings.clientKey = exporter("CLIENT_KEY")?.value
        if (settings.clientCertificate == nil) != (settings.clientKey == nil) {
            throw TracingSettingError(
                "OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE and OTEL_EXPORTER_OTLP_CLIENT_KEY go together")
        }
        if let text = value("OTEL_RESOURCE_ATTRIBUTES") {
            settings.resourceAttributes = try pairs(text, variable: "OTEL_RESOURCE_ATTRIBUTES")
        }
        if let text = value("OTEL_BSP_SCHEDULE_DELAY") {
            settings.scheduleDelay = try milliseconds(text, variable: "OTEL_BSP_SCHEDULE_DELAY")
        }
        if let text = value("OTEL_BSP_EXPORT_TIMEOUT") {
            settings.exportTimeout = try milliseconds(text, variable: "OTEL_BSP_EXPORT_TIMEOUT")
        }
        if let text = value("OTEL_BSP_MAX_QUEUE_SIZE") {
            settings.maxQueueSize = try count(text, variable: "OTEL_BSP_MAX_QUEUE_SIZE")
        }
        if let text = value("OTEL_BSP_MAX_EXPORT_BATCH_SIZE") {
            settings.maxExportBatchSize = try count(text, variable: "OTEL_BSP_MAX_EXPORT_BATCH_SIZE")
        }
        return settings
    }

    /// `key=value,key=value` with percent-encoded values (W3C Baggage's list, as the OTLP exporter reads its
    /// headers and the SDK its resource attributes).
    static func pairs(_ text: String, variable: String) throws(TracingSettingError) -> [String: String] {
        var result: [String: String] = [:]
        for member in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = member.split(separator: "=", maxSplits: 1)
            let key = parts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard parts.count == 2, !key.isEmpty,
                let decoded = parts[1].trimmingCharacters(in: .whitespaces).removingPercentEncoding
            else {
                throw TracingSettingError("\(variable) is not a list of key=value pairs (at \"\(key)\")")
            }
            result[key] = decoded
        }
        return result
    }

    private static func milliseconds(_ text: String, variable: String) throws(TracingSettingError) -> Duration {
        guard let value = Int(text), value >= 0 else {
            throw TracingSettingError("\(variable)=\(text) is not a number of milliseconds")
        }
        return .milliseconds(value)
    }

    private static func count(_ text: String, variable: String) throws(TracingSettingError) -> Int {
        guard let value = Int(text), value > 0 else {
            throw TracingSettingError("\(variable)=\(text) is not a positive number")
        }
        return value
    }
}
