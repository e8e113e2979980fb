import ArgumentParser
import Operations
import Kafka
import Logging
import PushModel
import PushTranslation
import PushWorker
import ServiceLifecycle

/// `pushgate run`: the Kafka stream worker.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Consume unified payloads, translate them and produce every format and dead letter.",
        discussion: """
            At least once: an input offset is committed only after every output and dead letter made from it is \
            acknowledged (acks=all, idempotent producer). SIGTERM or SIGINT: stop reading, finish and commit what \
            is in flight, flush, leave the group, exit 0. A fatal Kafka error exits non-zero.

            Every option has an environment variable, used when the option is not given, and a key in the \
            optional YAML configuration file (--config FILE or PUSHGATE_CONFIG), used when neither is: flags win \
            over environment variables, which win over the file, which wins over the defaults. \
            Variables: PUSHGATE_CONFIG, PUSHGATE_BOOTSTRAP_SERVERS, PUSHGATE_GROUP_ID, PUSHGATE_INPUT_TOPIC, \
            PUSHGATE_TOPICS (FORMAT=NAME entries separated by ',', ';' or newlines), PUSHGATE_DEAD_LETTER_TOPIC, \
            PUSHGATE_LENIENT (true/false), PUSHGATE_MAX_PAYLOAD_BYTES, PUSHGATE_X (key=value entries separated by \
            ';' or newlines; a -X flag wins for the same key), PUSHGATE_METRICS_PORT, PUSHGATE_PARTITIONS, \
            PUSHGATE_MAX_IN_FLIGHT, PUSHGATE_LOG_LEVEL, PUSHGATE_LOG_FORMAT, PUSHGATE_CONNECT_TIMEOUT. \
            File keys: the option names without dashes in front (max-in-flight: 500), topics (a mapping \
            FORMAT: NAME) and kafka-properties (a mapping KEY: VALUE); an unknown key is an error.

            With --metrics-port, an HTTP server on 0.0.0.0:PORT serves GET /metrics (Prometheus), /health \
            and /ready. Values of -X properties whose name contains password, secret or key are never logged.
            """
    )

    @Option(help: ArgumentHelp("A YAML configuration file of these settings (lowest precedence but defaults).", valueName: "FILE"))
    var config: String?

    @Option(help: "Kafka bootstrap servers (host:port,...). Without it, an embedded broker is started on loopback.")
    var bootstrapServers: String?

    @Option(help: "The consumer group (default: pushgate).")
    var groupId: String?

    @Option(help: "The input topic (default: push.unified).")
    var inputTopic: String?

    @Option(name: .customLong("topic"), help: ArgumentHelp("Output topic of a format (repeatable).", valueName: "FORMAT=NAME"))
    var topics: [String] = []

    @Option(help: "The dead-letter topic (default: push.dlq).")
    var deadLetterTopic: String?

    @Flag(inversion: .prefixedNo, help: "Unknown fields are warnings instead of errors (default: off).")
    var lenient: Bool?

    @Option(help: "Largest payload in bytes; larger is too_large (default: 1048576).")
    var maxPayloadBytes: Int?

    @Option(name: .customShort("X"), help: ArgumentHelp("A librdkafka property for consumer and producer (repeatable).", valueName: "KEY=VALUE"))
    var kafkaProperties: [String] = []

    @Option(help: "Port of the HTTP server of /metrics, /health and /ready on all interfaces (default: none, no server).")
    var metricsPort: Int?

    @Option(help: "Partitions per topic of the embedded broker, when no bootstrap servers are given (default: 8).")
    var partitions: Int?

    @Option(help: "Most input records in flight, read but not all acknowledged (default: 1000).")
    var maxInFlight: Int?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (default: info).")
    var logLevel: String?

    @Option(help: "Log lines as readable text or JSON, one object per line: text, json (default: text).")
    var logFormat: String?

    @Option(help: "Seconds to wait at startup for the bootstrap servers to answer before exiting (default: 10).")
    var connectTimeout: Int?

    func validate() throws {
        do {
            _ = try settings(EnvironmentSettings())
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let settings = try settings(EnvironmentSettings())
        let format = settings.logFormat
        let secrets = settings.secrets
        LoggingSystem.bootstrap { PushgateLogHandler(label: $0, format: format, secrets: secrets) }
        var logger = Logger(label: "pushgate")
        logger.logLevel = settings.logLevel
        var worker = settings.worker
        logger.info("starting", metadata: [
            "group": "\(worker.groupId)", "input-topic": "\(worker.inputTopic)",
            "bootstrap-servers": "\(worker.bootstrapServers.isEmpty ? "(embedded broker)" : worker.bootstrapServers)",
            "kafka-properties": "\(KafkaSecrets.describe(worker.kafkaProperties))",
            "metrics-port": "\(worker.metricsPort.map(String.init) ?? "none")",
        ])
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if worker.bootstrapServers.isEmpty {
            let broker = try EmbeddedBroker(
                topics: [worker.inputTopic] + OutputFormat.allCases.map { worker.translator.topic(for: $0) }
                    + [worker.translator.deadLetterTopic],
                partitions: settings.partitions, logger: logger)
            worker.bootstrapServers = broker.bootstrapServers
            StandardStreams.writeLine(broker.bootstrapServers)
            logger.notice("started an embedded broker at \(broker.bootstrapServers)")
            services.append(.init(service: EmbeddedBrokerService(broker: broker)))
        } else {
            try await checkReachable(worker, timeoutSeconds: settings.connectTimeoutSeconds, logger: logger)
        }
        let health = WorkerHealth()
        let metrics = PrometheusMetrics()
        if let port = worker.metricsPort {
            services.append(.init(service: OperationsServer(
                port: port, routes: OperationsRoutes(registry: metrics.registry, health: health), logger: logger)))
        }
        services.append(.init(
            service: PushWorker(configuration: worker, logger: logger, metrics: metrics.worker, health: health),
            successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .cancelGroup))
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        logger.info("stopped")
    }

    /// Fails fast, with the reason, when no bootstrap server answers a metadata request in time.
    private func checkReachable(_ worker: PushWorkerConfiguration, timeoutSeconds: Int, logger: Logger) async throws {
        do {
            let brokers = try await KafkaCluster.checkReachable(
                bootstrapServers: worker.bootstrapServers, properties: worker.kafkaProperties,
                timeout: .seconds(timeoutSeconds), logger: logger)
            logger.info("reached a cluster of \(brokers) broker(s) at \(worker.bootstrapServers)")
        } catch {
            logger.critical("\(error.message)")
            throw SettingError(error.message)
        }
    }

    /// The resolved settings: flags, then `PUSHGATE_*` variables, then the configuration file, then defaults.
    private func settings(_ environment: EnvironmentSettings) throws(SettingError) -> RunSettings {
        var flags = SettingSource(kind: .flags)
        let scalars: [(SettingKey, String?)] = [
            (.bootstrapServers, bootstrapServers), (.groupId, groupId), (.inputTopic, inputTopic),
            (.deadLetterTopic, deadLetterTopic), (.lenient, lenient.map { $0 ? "true" : "false" }),
            (.maxPayloadBytes, maxPayloadBytes.map(String.init)), (.metricsPort, metricsPort.map(String.init)),
            (.partitions, partitions.map(String.init)), (.maxInFlight, maxInFlight.map(String.init)),
            (.logLevel, logLevel), (.logFormat, logFormat), (.connectTimeout, connectTimeout.map(String.init)),
        ]
        for case let (key, value?) in scalars { flags.scalars[key] = value }
        var topicEntries: [(String, String)] = []
        for entry in topics { topicEntries.append(try SettingSource.split(entry, name: "--topic")) }
        var propertyEntries: [(String, String)] = []
        for entry in kafkaProperties { propertyEntries.append(try SettingSource.split(entry, name: "-X")) }
        flags.maps = [.topics: topicEntries, .kafkaProperties: propertyEntries]
        var sources = [flags, try SettingSource.environment(environment)]
        if let path = config ?? environment.string(configFileVariable) {
            sources.append(try ConfigFile.load(path: path))
        }
        return try RunSettings.resolve(sources)
    }
}
