import ArgumentParser
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

            Every option has an environment variable, used when the option is not given: \
            PUSHGATE_BOOTSTRAP_SERVERS, PUSHGATE_GROUP_ID, PUSHGATE_INPUT_TOPIC, PUSHGATE_TOPICS (FORMAT=NAME \
            entries separated by ',', ';' or newlines), PUSHGATE_DEAD_LETTER_TOPIC, PUSHGATE_LENIENT (true/false), \
            PUSHGATE_MAX_PAYLOAD_BYTES, PUSHGATE_X (key=value entries separated by ';' or newlines; a -X flag wins \
            for the same key), PUSHGATE_METRICS_PORT, PUSHGATE_PARTITIONS, PUSHGATE_MAX_IN_FLIGHT, \
            PUSHGATE_LOG_LEVEL.
            """
    )

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

    @Option(help: "Port of the metrics endpoint. Accepted and stored; the metrics server comes in a later release.")
    var metricsPort: Int?

    @Option(help: "Partitions per topic of the embedded broker, when no bootstrap servers are given (default: 8).")
    var partitions: Int?

    @Option(help: "Most input records in flight, read but not all acknowledged (default: 1000).")
    var maxInFlight: Int?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (default: info).")
    var logLevel: String?

    func validate() throws {
        _ = try settings(EnvironmentSettings())
    }

    func run() async throws {
        let environment = EnvironmentSettings()
        let settings = try settings(environment)
        var logger = Logger(label: "pushgate.run")
        logger.logLevel = settings.logLevel
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        var worker = settings.worker
        if worker.bootstrapServers.isEmpty {
            let broker = try EmbeddedBroker(
                topics: [worker.inputTopic] + OutputFormat.allCases.map { worker.translator.topic(for: $0) }
                    + [worker.translator.deadLetterTopic],
                partitions: settings.partitions, logger: logger)
            worker.bootstrapServers = broker.bootstrapServers
            StandardStreams.writeLine(broker.bootstrapServers)
            logger.notice("started an embedded broker at \(broker.bootstrapServers)")
            services.append(.init(service: EmbeddedBrokerService(broker: broker)))
        }
        services.append(.init(
            service: PushWorker(configuration: worker, logger: logger),
            successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .cancelGroup))
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// The resolved settings: flags, then `PUSHGATE_*` variables, then defaults.
    private func settings(_ environment: EnvironmentSettings) throws -> (worker: PushWorkerConfiguration, partitions: Int, logLevel: Logger.Level) {
        let envTopics = try KeyValueOption.topics(environment.list("PUSHGATE_TOPICS", separators: [",", ";"]))
        let flagTopics = try KeyValueOption.topics(topics)
        var properties: [String: String] = [:]
        for entry in environment.list("PUSHGATE_X") + kafkaProperties {
            let (key, value) = try KeyValueOption.split(entry, option: "-X")
            properties[key] = value
        }
        let maxPayloadBytes = try maxPayloadBytes ?? environment.int("PUSHGATE_MAX_PAYLOAD_BYTES")
            ?? TranslatorConfiguration.defaultMaxPayloadBytes
        guard maxPayloadBytes > 0 else { throw ValidationError("--max-payload-bytes must be positive") }
        let partitions = try partitions ?? environment.int("PUSHGATE_PARTITIONS") ?? 8
        guard partitions >= 1 else { throw ValidationError("--partitions must be at least 1") }
        let maxInFlight = try maxInFlight ?? environment.int("PUSHGATE_MAX_IN_FLIGHT") ?? 1000
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight must be at least 1") }
        let levelName = logLevel ?? environment.string("PUSHGATE_LOG_LEVEL") ?? "info"
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw ValidationError("unknown log level '\(levelName)'")
        }
        let translator = TranslatorConfiguration(
            lenient: try lenient ?? environment.bool("PUSHGATE_LENIENT") ?? false,
            maxPayloadBytes: maxPayloadBytes,
            topics: envTopics.merging(flagTopics) { $1 },
            deadLetterTopic: deadLetterTopic ?? environment.string("PUSHGATE_DEAD_LETTER_TOPIC")
                ?? TranslatorConfiguration.defaultDeadLetterTopic)
        let worker = PushWorkerConfiguration(
            bootstrapServers: bootstrapServers ?? environment.string("PUSHGATE_BOOTSTRAP_SERVERS") ?? "",
            groupId: groupId ?? environment.string("PUSHGATE_GROUP_ID") ?? "pushgate",
            inputTopic: inputTopic ?? environment.string("PUSHGATE_INPUT_TOPIC") ?? TranslatorConfiguration.defaultInputTopic,
            translator: translator, kafkaProperties: properties, maxInFlightRecords: maxInFlight,
            metricsPort: try metricsPort ?? environment.int("PUSHGATE_METRICS_PORT"))
        return (worker, partitions, level)
    }
}
