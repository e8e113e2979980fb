import ArgumentParser
import Logging
import PushModel
import PushWorker
import PushgateConsole
import PushgateHTTP
import PushgateKafka
import PushgateLogging
import PushgateSettings
import ServiceLifecycle

/// `pushgate console`: the dead-letter workbench for a cluster (docs/console.md).
struct ConsoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract:
            "Serve the dead-letter console: see why records failed, fix them, re-drive them, follow them through.",
        discussion: """
            Reads the dead-letter topic whole and the output topics from the moment it starts, watches the \
            worker group's lag, and serves a page and its JSON API (GET /api/dead-letters, POST /api/redrive, \
            docs/console.md). It joins no consumer group and commits nothing.

            The connection and topic options are those of run, with the same environment variables and \
            configuration file; --group-id names the worker group to watch. Without --bootstrap-servers an \
            embedded broker is started (its address is printed), for trying the console with a worker pointed \
            at it. Off loopback (--host other than 127.0.0.1, ::1 or localhost) --token-file is required: every \
            /api request must then carry Authorization: Bearer TOKEN, or gets 401. Serves until SIGINT or SIGTERM.
            """
    )

    /// `run`'s connection and topic options.
    @OptionGroup var options: ConsoleOptions

    @Option(help: "The address to bind; loopback by default, so only this machine can reach the console.")
    var host = PlaygroundServer.defaultHost

    @Option(help: "The TCP port (0: any free port, printed).")
    var port = 8081

    @Option(help: "A file holding the token every /api request must carry (Authorization: Bearer TOKEN).")
    var tokenFile: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        if let refusal = ListenAddressRule.refusal(host: host, hasToken: tokenFile != nil) {
            throw ValidationError(refusal)
        }
        let run = options.runOptions
        _ = try validating { () throws(SettingError) in
            try RunSettings.resolve(run, environment: EnvironmentSettings(), readingFile: false)
        }
    }

    func run() async throws {
        let run = options.runOptions
        let tokenFile = self.tokenFile
        let (settings, resources, token) = try await DedicatedThread.run(name: "console-setup") {
            let settings = try validating { () throws(SettingError) in
                try RunSettings.resolve(run, environment: EnvironmentSettings(), readingFile: true)
            }
            return (settings, try ConsoleResources.load(), try tokenFile.map { try BearerToken.read(path: $0) })
        }
        let logger = settings.bootstrapLogging(label: "pushgate.console")
        let worker = settings.worker
        let outputTopics = OutputFormat.allCases.map { (format: $0.rawValue, topic: worker.translator.topic(for: $0)) }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        var bootstrap = worker.bootstrapServers
        if bootstrap.isEmpty {
            let broker = try await worker.startEmbeddedBroker(partitions: settings.partitions, logger: logger)
            bootstrap = broker.bootstrapServers
            logger.notice(
                "started an embedded broker at \(broker.bootstrapServers): point a worker at it with --bootstrap-servers"
            )
            services.append(
                .init(service: EmbeddedBrokerService(broker: broker), serviceName: ServiceName.embeddedBroker))
        }
        let console = ConsoleSettings(
            bootstrapServers: bootstrap, embeddedBroker: worker.bootstrapServers.isEmpty, inputTopic: worker.inputTopic,
            deadLetterTopic: worker.translator.deadLetterTopic, outputTopics: outputTopics, groupId: worker.groupId,
            androidFormats: OutputFormat.allCases.filter { worker.translator.androidFormats.contains($0) }.map(
                \.rawValue),
            lenient: worker.translator.lenient,
            consumerProperties: KafkaPropertyScope.properties(worker.kafkaProperties, for: .consumer),
            producerProperties: worker.producerDefaults.merging(
                KafkaPropertyScope.properties(worker.kafkaProperties, for: .producer)
            ) { _, given in given })
        let server = try ConsoleServer(
            host: host, port: port, token: token, settings: console, resources: resources,
            maxPayloadBytes: worker.translator.maxPayloadBytes, logger: logger,
            onListening: { port in StandardStreams.writeLine("console listening on port \(port)") })
        services.append(
            .init(
                service: server, successTerminationBehavior: .gracefullyShutdownGroup,
                serviceName: ServiceName.console))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// The options of `pushgate run` the console takes: its option groups and `--partitions`, from the same
/// definitions (``Settings``).
struct ConsoleOptions: ParsableArguments {
    @OptionGroup var connection: ConnectionOptions
    @Option(Settings.partitions) var partitions: Int?
    @OptionGroup var logging: LoggingOptions

    /// The same values as `run`'s options; those the console does not take are not given.
    var runOptions: RunOptions {
        var options = RunOptions()
        options.connection = connection
        options.partitions = partitions
        options.logging = logging
        // A property wrapper of `RunOptions()` that is neither parsed nor set cannot be read: every option is
        // read when the settings are resolved, so those the console does not take are set to "not given".
        options.metricsPort = nil
        options.maxInFlight = nil
        options.connectTimeout = nil
        options.shutdownTimeout = nil
        return options
    }
}
