import ArgumentParser
import Kafka
import Logging
import PushWorker
import ServiceLifecycle

/// `pushgate bench contender`: one of the consume → produce baselines of `pushgate bench pipeline`, in a
/// process of its own so that its CPU time and peak memory can be read from outside. Runs until SIGTERM.
struct PipelineContenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contender",
        abstract: "Run a pipeline benchmark baseline until SIGTERM (started by `pushgate bench pipeline`).",
        shouldDisplay: false
    )

    /// The baselines this command runs (the worker itself is `pushgate run`).
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        /// ``Passthrough``: the worker's pipeline without translation.
        case passthrough
        /// ``RawPassthrough``: librdkafka consume → produce, no discipline.
        case raw
        /// ``Passthrough`` writing the worker's outputs of each bench input without translating
        /// (``FloorOutputs``): the worker's Kafka traffic, translation free.
        case floor
    }

    @Argument(help: "passthrough, raw or floor.")
    var kind: Kind

    @Option(help: "Kafka bootstrap servers.")
    var bootstrapServers: String

    @Option(help: "The consumer group.")
    var groupId: String

    @Option(help: "The input topic.")
    var inputTopic: String

    @Option(help: "The output topic.")
    var outputTopic: String

    @Option(help: "Most input records in flight (passthrough).")
    var maxInFlight = 4000

    @Option(name: .customShort("X"), help: ArgumentHelp("A librdkafka property (repeatable).", valueName: "KEY=VALUE"))
    var kafkaProperties: [String] = []

    func run() async throws {
        var logger = Logger(label: "pushgate.bench.\(kind.rawValue)")
        logger.logLevel = .error
        var properties: [String: String] = [:]
        for entry in kafkaProperties {
            let (key, value) = try KeyValueOption.split(entry, option: "-X")
            properties[key] = value
        }
        let service: any Service
        switch kind {
        case .passthrough, .floor:
            var configuration = PushWorkerConfiguration(
                bootstrapServers: bootstrapServers, inputTopic: inputTopic, kafkaProperties: properties,
                maxInFlightRecords: maxInFlight)
            configuration.groupId = groupId
            // As `pushgate run` does, so that the two differ only by translation.
            let cluster = try await KafkaCluster.describe(
                bootstrapServers: bootstrapServers, properties: KafkaPropertyScope.properties(properties, for: .producer),
                timeout: .seconds(10), logger: logger)
            if cluster.isLibrdkafkaMock { _ = configuration.keepOneProduceRequestInFlight() }
            if kind == .floor {
                let floor = FloorOutputs(configuration: configuration.translator, inputTopic: inputTopic)
                service = Passthrough(
                    configuration: configuration, outputs: .fannedOut { floor.outputs(forKey: $0.key) }, logger: logger)
            } else {
                service = Passthrough(configuration: configuration, outputTopic: outputTopic, logger: logger)
            }
        case .raw:
            service = RawPassthroughService(
                passthrough: try RawPassthrough(
                    bootstrapServers: bootstrapServers, groupId: groupId, inputTopic: inputTopic,
                    outputTopic: outputTopic, properties: properties, logger: logger))
        }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// Runs a ``RawPassthrough`` until graceful shutdown.
struct RawPassthroughService: Service {
    let passthrough: RawPassthrough

    func run() async throws {
        passthrough.start()
        try? await gracefulShutdown()
        await passthrough.stop()
    }
}
