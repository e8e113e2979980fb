import ArgumentParser
import Logging
import PushDelivery
import PushWorker
import PushgateHTTP
import PushgateKafka
import PushgateMetrics
import PushgateSettings
import PushgateTracing
import ServiceLifecycle

/// `pushgate deliver`: the delivery worker (SPEC 10).
struct DeliverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliver",
        abstract: "Read the output topics and post each record to its devices' push service; write receipts.",
        discussion: """
            Reads the device directory (--devices-topic) whole, then the delivered topics of the enabled \
            platforms as a consumer group; each record goes to every device of its audience (its key), is retried \
            as SPEC 10.6 says until it has a final outcome, and the outcomes --receipts selects go to \
            --receipts-topic. An offset is committed only when every device of that record and of every earlier \
            record of its partition has a final outcome and its receipts are acknowledged. SIGTERM or SIGINT: stop \
            reading, finish or abandon the requests in flight within --shutdown-timeout, commit what is final, \
            exit 0.

            Every option has an environment variable, used when the option is not given: \
            \(Settings.Deliver.environmentVariableList). With --metrics-port, an HTTP server on 0.0.0.0:PORT \
            serves GET /metrics (Prometheus), /health and /ready (503 until the directory is read, and while a \
            platform is paused for its credentials, naming it). Keys, tokens and JWTs are never logged.
            """
    )

    /// Every option, typed, one per setting.
    @OptionGroup var options: DeliverOptions

    /// Flags and variables (exit 64 with the message when they cannot be used).
    func validate() throws {
        _ = try validating { () throws(SettingError) in
            try DeliverSettings.resolve(options, environment: EnvironmentSettings())
        }
        _ = try TracingStart.settings(defaultServiceName: "pushgate-deliver")
    }

    func run() async throws {
        let options = self.options
        let settings = try await DedicatedThread.run(name: "pushgate-settings") {
            try validating { () throws(SettingError) in
                try DeliverSettings.resolve(options, environment: EnvironmentSettings(), checkingFiles: true)
            }
        }
        let tracing = try TracingStart.settings(defaultServiceName: "pushgate-deliver")
        let logger = settings.bootstrapLogging(label: "pushgate-deliver", metadata: TracingStart.logMetadata(tracing))
        var configuration = settings.delivery
        logger.info(
            "starting",
            metadata: [
                "group": "\(configuration.groupId)",
                "platforms": "\(configuration.platforms.map(\.rawValue).sorted().joined(separator: ","))",
                "topics": "\(configuration.deliveredTopics.joined(separator: ","))",
                "bootstrap-servers": "\(configuration.bootstrapServers)",
                "kafka-properties": "\(KafkaSecrets.describe(configuration.kafkaProperties))",
                "metrics-port": "\(configuration.metricsPort.map(String.init) ?? "none")",
            ])
        let metrics = DeliveryPrometheusMetrics()
        // Before the HTTP client's and librdkafka's threads start (the backend sets a variable of the process).
        let traced = try TracingStart.backend(
            tracing, shutdownTimeout: configuration.shutdownTimeout, registry: metrics.registry, logger: logger)
        // Credential files and endpoints first: a key that cannot be used is a usage error (exit 64).
        let wiring: DeliverWiring.Wiring
        do {
            wiring = try await DeliverWiring.make(configuration, metrics: metrics, logger: logger)
        } catch {
            logger.critical("\(error)")
            throw ValidationError("\(error)")
        }
        do {
            try await checkCluster(&configuration, logger: logger)
        } catch {
            // No service group will close the HTTP client: close it here (its deinit would stop the process).
            await wiring.close()
            throw error
        }
        let health = WorkerHealth()
        var services = traced.map { [$0.service] } ?? []
        if let port = configuration.metricsPort {
            services.append(
                .init(
                    service: OperationsServer(
                        port: port, routes: OperationsRoutes(metrics: metrics.emit, health: health), logger: logger),
                    serviceName: ServiceName.operations))
        }
        for (index, service) in wiring.background.enumerated() {
            services.append(.init(service: service, serviceName: "deliver-background-\(index)"))
        }
        services.append(
            .init(
                service: DeliveryWorker(
                    configuration: configuration, services: wiring.services, logger: logger,
                    metrics: metrics.delivery, health: health, tracer: traced?.tracer),
                successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .cancelGroup,
                serviceName: ServiceName.worker))
        // Last: graceful shutdown reaches the services in reverse order, this one first.
        services.append(
            .init(
                service: ShutdownDeadlineService(timeout: configuration.shutdownTimeout, logger: logger),
                successTerminationBehavior: .ignore, serviceName: ServiceName.shutdownDeadline))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        logger.info("stopped")
    }

    /// Fails fast when no bootstrap server answers in time or the receipts topic cannot be written; on
    /// librdkafka's mock cluster keeps one produce request in flight, as `run` does.
    private func checkCluster(_ configuration: inout DeliveryConfiguration, logger: Logger) async throws {
        let cluster: KafkaCluster.Description
        do {
            cluster = try await KafkaCluster.describe(
                bootstrapServers: configuration.bootstrapServers,
                properties: KafkaPropertyScope.properties(configuration.kafkaProperties, for: .producer),
                topics: [configuration.receiptsTopic], timeout: .seconds(10), logger: logger)
        } catch {
            logger.critical("\(error.message)")
            throw SettingError(error.message)
        }
        guard cluster.unavailableTopics.isEmpty else {
            let message =
                "cannot write receipts to \(configuration.receiptsTopic): create it or name another with --receipts-topic"
            logger.critical("\(message)")
            throw SettingError(message)
        }
        let names = ["max.in.flight", "max.in.flight.requests.per.connection"]
        if cluster.isLibrdkafkaMock,
            !configuration.kafkaProperties.keys.contains(where: { key in
                names.contains { key == $0 || key == "producer." + $0 }
            })
        {
            configuration.kafkaProperties.merge(PushWorkerConfiguration.oneProduceRequestInFlight) { $1 }
        }
    }
}
