import ArgumentParser
import Logging
import PushModel
import PushTranslation
import PushWorker
import PushgateHTTP
import PushgateKafka
import PushgateMetrics
import PushgateSettings
import PushgateTracing
import ServiceLifecycle

/// `pushgate run`: the Kafka stream worker.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Consume unified payloads, translate them and produce every format and dead letter.",
        discussion: """
            At least once: an input offset is committed only after every output and dead letter made from it is \
            acknowledged (acks=all, idempotent producer). SIGTERM or SIGINT: stop reading, finish and commit what \
            is in flight, flush, leave the group, exit 0, within --shutdown-timeout whatever the cluster does (what \
            cannot be committed by then is read again by the next member). A fatal Kafka error exits non-zero.

            Every option has an environment variable, used when the option is not given, and a key in the \
            optional YAML configuration file (--config FILE or PUSHGATE_CONFIG), used when neither is: flags win \
            over environment variables, which win over the file, which wins over the defaults. \
            Variables: \(Settings.environmentVariableList). \
            File keys: the option names without dashes in front (max-in-flight: 500), topics (a mapping \
            FORMAT: NAME) and kafka-properties (a mapping KEY: VALUE); an unknown key is an error.

            With --metrics-port, an HTTP server on 0.0.0.0:PORT serves GET /metrics (Prometheus), /health \
            and /ready. Values of -X properties whose name contains password, secret or key are never logged.
            """
    )

    /// Every option, typed, one per setting.
    @OptionGroup var options: RunOptions

    /// Flags and variables; the configuration file is read in ``run()``, off the cooperative pool.
    func validate() throws {
        _ = try validating { () throws(SettingError) in
            try RunSettings.resolve(options, environment: EnvironmentSettings(), readingFile: false)
        }
        _ = try TracingStart.settings(defaultServiceName: "pushgate-run")
    }

    func run() async throws {
        // First: a SIGTERM while starting (the cluster check may wait up to --connect-timeout) exits 0.
        let signals = await ShutdownSignals.trap()
        defer { signals.stop() }
        let options = self.options
        let settings = try await DedicatedThread.run(name: "pushgate-settings") {
            try validating { () throws(SettingError) in
                try RunSettings.resolve(options, environment: EnvironmentSettings(), readingFile: true)
            }
        }
        let tracing = try TracingStart.settings(defaultServiceName: "pushgate-run")
        let logger = settings.bootstrapLogging(label: "pushgate", metadata: TracingStart.logMetadata(tracing))
        signals.log(to: logger)
        var worker = settings.worker
        logger.info(
            "starting",
            metadata: [
                "group": "\(worker.groupId)", "input-topic": "\(worker.inputTopic)",
                "bootstrap-servers":
                    "\(worker.bootstrapServers.isEmpty ? "(embedded broker)" : worker.bootstrapServers)",
                "kafka-properties": "\(KafkaSecrets.describe(worker.kafkaProperties))",
                "metrics-port": "\(worker.metricsPort.map(String.init) ?? "none")",
                "allocator": "\(Allocator.description)",
            ])
        let metrics = PrometheusMetrics()
        let traced = try TracingStart.backend(
            tracing, shutdownTimeout: worker.shutdownTimeout, registry: metrics.registry, logger: logger)
        var services = traced.map { [$0.service] } ?? []
        if worker.bootstrapServers.isEmpty {
            let broker = try await worker.startEmbeddedBroker(partitions: settings.partitions, logger: logger)
            worker.bootstrapServers = broker.bootstrapServers
            logger.notice("started an embedded broker at \(broker.bootstrapServers)")
            adaptToMockCluster(&worker, logger: logger)
            services.append(
                .init(service: EmbeddedBrokerService(broker: broker), serviceName: ServiceName.embeddedBroker))
        } else {
            let cluster = try await describeCluster(
                worker, timeoutSeconds: settings.connectTimeoutSeconds, logger: logger)
            if cluster.isLibrdkafkaMock { adaptToMockCluster(&worker, logger: logger) }
        }
        let health = WorkerHealth()
        if let port = worker.metricsPort {
            services.append(
                .init(
                    service: OperationsServer(
                        port: port, routes: OperationsRoutes(metrics: metrics.emit, health: health), logger: logger
                    ), serviceName: ServiceName.operations))
        }
        services.append(
            .init(
                service: PushWorker(
                    configuration: worker, logger: logger, metrics: metrics.worker, health: health,
                    tracer: traced?.tracer),
                successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .cancelGroup,
                serviceName: ServiceName.worker))
        // Last: graceful shutdown reaches the services in reverse order, this one first.
        services.append(
            .init(
                service: ShutdownDeadlineService(timeout: worker.shutdownTimeout, logger: logger),
                successTerminationBehavior: .ignore, serviceName: ServiceName.shutdownDeadline))
        // The signals are `signals`' (from the start, so that none is missed before the group runs).
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger))
        signals.handOver(to: group, logger: logger)
        try await group.run()
        logger.info("stopped")
    }

    /// Fails fast, with the reason, when no bootstrap server answers a metadata request in time, or when
    /// the cluster has no topic of a name the worker writes to (or the worker may not use it); what the
    /// cluster said of itself otherwise.
    private func describeCluster(
        _ worker: PushWorkerConfiguration, timeoutSeconds: Int, logger: Logger
    ) async throws -> KafkaCluster.Description {
        let cluster: KafkaCluster.Description
        do {
            cluster = try await KafkaCluster.describe(
                bootstrapServers: worker.bootstrapServers,
                properties: KafkaPropertyScope.properties(worker.kafkaProperties, for: .producer),
                topics: worker.translator.writtenTopics, timeout: .seconds(timeoutSeconds), logger: logger)
        } catch {
            logger.critical("\(error.message)")
            throw SettingError(error.message)
        }
        logger.info("reached a cluster of \(cluster.brokers) broker(s) at \(worker.bootstrapServers)")
        guard cluster.unavailableTopics.isEmpty else {
            let message =
                "cannot write to \(cluster.unavailableTopics.map(\.description).joined(separator: ", ")): "
                + "create the topic, or name one the cluster has with --topic FORMAT=NAME or --dead-letter-topic"
            logger.critical("\(message)")
            throw SettingError(message)
        }
        return cluster
    }

    /// librdkafka's mock cluster: one produce request in flight (``PushWorkerConfiguration/keepOneProduceRequestInFlight()``).
    private func adaptToMockCluster(_ worker: inout PushWorkerConfiguration, logger: Logger) {
        guard worker.keepOneProduceRequestInFlight() else { return }
        logger.info(
            "librdkafka's mock cluster does not check idempotent sequence numbers: one produce request in flight")
    }
}
