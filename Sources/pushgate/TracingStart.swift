import ArgumentParser
import Foundation
import Logging
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

    /// The log lines' metadata for `settings`: the current span's ids when tracing is on.
    static func logMetadata(_ settings: TracingSettings) -> Logger.MetadataProvider? {
        settings.isEnabled ? TracingBackend.logMetadata : nil
    }

    /// The backend of `settings` (`nil`: tracing is off), its service appended to `services` to run first
    /// (so that it stops last, exporting what the worker's last spans left, for at most a tenth of
    /// `shutdownTimeout` and 2 s), and the choice logged.
    static func backend(
        _ settings: TracingSettings, shutdownTimeout: Duration,
        services: inout [ServiceGroupConfiguration.ServiceConfiguration], logger: Logger
    ) throws -> RecordTracer? {
        logger.info("tracing: \(settings.summary)")
        guard let backend = try TracingBackend.make(settings, logger: logger) else { return nil }
        // A tracing exporter that stops (it does not, but for its own errors) never stops the worker.
        services.append(
            .init(
                service: GraceBoundedService(service: backend.service, grace: min(.seconds(2), shutdownTimeout / 10)),
                successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore,
                serviceName: ServiceName.tracing))
        return backend.tracer
    }
}
