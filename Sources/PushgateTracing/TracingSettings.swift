/// What the standard `OTEL_*` variables ask of pushgate's tracing (SPEC section 11), read from the environment
/// once at start: whether traces are exported at all, which are sampled, and where and how they are exported.
public struct TracingSettings: Sendable, Equatable {
    /// Where spans go: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT`; `nil`: tracing is off.
    public var endpoint: String?
    /// `OTEL_SERVICE_NAME`, else the command's default (`pushgate-run`, `pushgate-deliver`).
    public var serviceName: String
    /// `OTEL_TRACES_SAMPLER` (default `parentbased_always_on`).
    public var sampler: String
    /// `OTEL_TRACES_SAMPLER_ARG`, for the ratio samplers (default 1.0).
    public var samplerArgument: Double?
    /// `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL` (default `http/protobuf`).
    public var exportProtocol: String
    /// Where and how spans are exported; `nil` when tracing is off.
    public var export: OTLPExportSettings?

    /// Whether spans are made and exported.
    public var isEnabled: Bool { endpoint != nil }

    /// The samplers pushgate accepts: OpenTelemetry's standard ones.
    public static let samplers: Set<String> = [
        "always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off",
        "parentbased_traceidratio",
    ]

    /// The OTLP protocols this build exports with (OTLP/gRPC and OTLP/HTTP with JSON are not built in).
    public static let protocols: Set<String> = ["http/protobuf"]

    /// The propagators `OTEL_PROPAGATORS` may name: W3C `tracecontext`, which pushgate reads and writes itself
    /// (SPEC section 11), and `baggage`, whose header every record written forwards unchanged.
    public static let propagators: Set<String> = ["tracecontext", "baggage"]

    /// The settings of `environment` (a process's variables), for a command whose default service name is
    /// `defaultServiceName`. Tracing is off without an endpoint, with `OTEL_SDK_DISABLED=true` or with
    /// `OTEL_TRACES_EXPORTER=none`.
    /// - Throws: ``TracingSettingError`` for a sampler, sampler argument, exporter, protocol, propagator list or
    ///   exporter setting pushgate cannot use.
    public static func resolve(
        _ environment: [String: String], defaultServiceName: String
    ) throws(TracingSettingError) -> TracingSettings {
        func value(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingASCIISpaces(), !text.isEmpty else { return nil }
            return text
        }
        let sampler = value("OTEL_TRACES_SAMPLER")?.lowercased() ?? "parentbased_always_on"
        guard samplers.contains(sampler) else {
            throw TracingSettingError(
                "OTEL_TRACES_SAMPLER=\(sampler) is not one of \(samplers.sorted().joined(separator: ", "))")
        }
        var samplerArgument: Double?
        if let text = value("OTEL_TRACES_SAMPLER_ARG"), sampler.hasSuffix("traceidratio") {
            guard let ratio = Double(text), (0...1).contains(ratio) else {
                throw TracingSettingError("OTEL_TRACES_SAMPLER_ARG=\(text) is not a probability between 0 and 1")
            }
            samplerArgument = ratio
        }
        let exportProtocol =
            (value("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? value("OTEL_EXPORTER_OTLP_PROTOCOL"))?.lowercased()
            ?? "http/protobuf"
        let exporter = value("OTEL_TRACES_EXPORTER")?.lowercased() ?? "otlp"
        guard exporter == "otlp" || exporter == "none" else {
            throw TracingSettingError("OTEL_TRACES_EXPORTER=\(exporter): pushgate exports with otlp only (or none)")
        }
        let disabled = value("OTEL_SDK_DISABLED")?.lowercased() == "true" || exporter == "none"
        let tracesEndpoint = disabled ? nil : value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        let endpoint = tracesEndpoint ?? (disabled ? nil : value("OTEL_EXPORTER_OTLP_ENDPOINT"))
        var export: OTLPExportSettings?
        if let endpoint {
            guard protocols.contains(exportProtocol) else {
                throw TracingSettingError(
                    "OTEL_EXPORTER_OTLP_PROTOCOL=\(exportProtocol) is not supported: use http/protobuf")
            }
            try checkPropagators(value("OTEL_PROPAGATORS"))
            export = try OTLPExportSettings.resolve(value, endpoint: endpoint, isTracesEndpoint: tracesEndpoint != nil)
        }
        return TracingSettings(
            endpoint: endpoint, serviceName: value("OTEL_SERVICE_NAME") ?? defaultServiceName, sampler: sampler,
            samplerArgument: samplerArgument, exportProtocol: exportProtocol, export: export)
    }

    /// Refuses an `OTEL_PROPAGATORS` list that leaves out `tracecontext` or names a propagator pushgate does not
    /// speak (`b3`, `jaeger`, `none` ...): records would carry W3C headers where the list asks for others.
    private static func checkPropagators(_ list: String?) throws(TracingSettingError) {
        guard let list else { return }
        let names = list.split(separator: ",").map { String($0).trimmingASCIISpaces().lowercased() }
        guard names.contains("tracecontext"), names.allSatisfy(propagators.contains) else {
            throw TracingSettingError(
                "OTEL_PROPAGATORS=\(list): pushgate propagates W3C tracecontext (and forwards baggage) only; "
                    + "set it to tracecontext or tracecontext,baggage, or leave it unset")
        }
    }

    /// A one-line description for the start-up log: the endpoint, sampler and service name, or `off`.
    public var summary: String {
        guard let endpoint else { return "off" }
        let argument = samplerArgument.map { "(\($0))" } ?? ""
        return "\(exportProtocol) to \(export?.url ?? endpoint), sampler \(sampler)\(argument), service \(serviceName)"
    }
}

/// An `OTEL_*` variable whose value pushgate cannot use.
public struct TracingSettingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the variable.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension String {
    fileprivate func trimmingASCIISpaces() -> String {
        var view = Substring(self)
        while view.first == " " || view.first == "\t" { view.removeFirst() }
        while view.last == " " || view.last == "\t" { view.removeLast() }
        return String(view)
    }
}
