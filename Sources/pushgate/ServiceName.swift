/// The names of the services in the logs' `sl-service` metadata. Named here: by default the service
/// lifecycle describes each service by reflecting over all it holds (its whole configuration), which
/// makes long log lines and costs milliseconds at start.
enum ServiceName {
    static let worker = "worker"
    static let embeddedBroker = "embedded-broker"
    static let operations = "operations-server"
    static let console = "console"
    static let playground = "playground"
    static let shutdownDeadline = "shutdown-deadline"
    static let tracing = "tracing-exporter"
}
