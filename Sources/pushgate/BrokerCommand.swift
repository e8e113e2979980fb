import ArgumentParser
import Logging
import PushModel
import PushTranslation
import PushWorker
import PushgateKafka
import PushgateSettings
import ServiceLifecycle

/// `pushgate broker`: an embedded Kafka cluster on loopback (librdkafka's mock cluster).
struct BrokerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "broker",
        abstract: "Run an embedded Kafka broker on loopback for demos and tests.",
        discussion: """
            Creates the topics of pushgate (input, one per format, dead letters) and prints the bootstrap address \
            as the first line of standard output, then serves until SIGINT or SIGTERM. It is librdkafka's mock \
            cluster: each partition keeps only about 5 MiB, and transactions have no effect. It does not check an \
            idempotent producer's sequence numbers as Kafka does: while a retriable Produce error is injected, a \
            producer with several requests in flight may see a failed batch counted as written (lost by the mock); \
            give it -X producer.max.in.flight.requests.per.connection=1 (docs/embedded-broker.md).

            With --control, fault-injection commands are read from standard input, one per line, and each is \
            answered with "ok" or "error: MESSAGE" on standard output; the end of standard input does not stop \
            the broker:
            \(EmbeddedBroker.controlCommandHelp)
            """
    )

    @Option(help: "Partitions of each topic.")
    var partitions = Settings.partitions.defaultValue

    @Option(help: "Brokers in the cluster (ids 1...N).")
    var brokers = 1

    @Flag(help: "Read fault-injection commands from standard input.")
    var control = false

    @Option(help: "The input topic to create.")
    var inputTopic = Settings.inputTopic.defaultValue

    @Option(name: Settings.topics.optionName, help: ArgumentHelp("Output topic of a format.", valueName: "FORMAT=NAME"))
    var topics: [String] = []

    @Option(help: "The dead-letter topic to create.")
    var deadLetterTopic = Settings.deadLetterTopic.defaultValue

    @Option(help: ArgumentHelp("Also create this topic (repeatable).", valueName: "NAME"))
    var extraTopic: [String] = []

    @Flag(
        help: ArgumentHelp(
            "Log every append to a partition and every offset commit to standard error, in the order the "
                + "brokers serve them (librdkafka's debug=mock lines).",
            discussion: "For tests that check when records became readable against when offsets were committed."))
    var traceEvents = false

    func validate() throws {
        let counts = Settings.partitionCounts
        guard counts.contains(partitions) else {
            throw ValidationError("--partitions must be \(counts.lowerBound)...\(counts.upperBound)")
        }
        guard (1...64).contains(brokers) else { throw ValidationError("--brokers must be between 1 and 64") }
        _ = try KeyValueOption.topics(topics)
    }

    func run() async throws {
        var logger = Logger(label: "pushgate.broker")
        logger.logLevel = .warning
        let renamed = try KeyValueOption.topics(topics)
        let formatTopics = OutputFormat.allCases.map { renamed[$0] ?? $0.defaultTopic }
        let allTopics = [inputTopic] + formatTopics + [deadLetterTopic] + extraTopic
        let (brokers, partitions, traceEvents) = (brokers, partitions, traceEvents)
        let broker = try await DedicatedThread.run(name: "embedded-broker-setup") { [logger] in
            try EmbeddedBroker(
                brokerCount: brokers, topics: allTopics, partitions: partitions, logger: logger,
                traceEvents: traceEvents)
        }
        StandardStreams.writeLine(broker.bootstrapServers)
        let service = EmbeddedBrokerService(broker: broker, controlLines: control ? StandardStreams.inputLines() : nil)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(
                        service: service, successTerminationBehavior: .gracefullyShutdownGroup,
                        serviceName: ServiceName.embeddedBroker)
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
