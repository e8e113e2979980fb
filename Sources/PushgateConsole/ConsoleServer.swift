import Logging
import PushgateHTTP
import PushgateKafka
import ServiceLifecycle
import Synchronization

/// `pushgate console` as a swift-service-lifecycle `Service`: the page and its API on `host:port`, and
/// beside it the readers that keep the console's view of the cluster (the dead-letter topic whole, the
/// output topics from when it has been read or from the first re-drive, the live watch). It serves until graceful shutdown or cancellation.
public struct ConsoleServer: Service {
    private let host: String
    private let port: Int
    private let token: BearerToken?
    private let settings: ConsoleSettings
    private let routes: ConsoleRoutes
    private let outputsReady: ReadyFlag
    private let outputsWanted: ReadyFlag
    private let logger: Logger
    private let onListening: @Sendable (Int) -> Void

    /// Creates the console and its re-driver's producer.
    /// - Parameters:
    ///   - host: the address to bind (loopback unless a token is given: ``ListenAddressRule``).
    ///   - port: the TCP port; 0 picks a free one, reported to `onListening`.
    ///   - token: when given, every `/api` request must carry it.
    ///   - resources: the console's page and the playground's examples (``ConsoleResources/load()``).
    ///   - maxPayloadBytes: the translator's payload limit, for the editor and the request size limit.
    public init(
        host: String, port: Int, token: BearerToken?, settings: ConsoleSettings, resources: ConsoleResources,
        maxPayloadBytes: Int, logger: Logger, onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws(KafkaError) {
        let index = DeadLetterIndex()
        let followThrough = FollowThrough()
        let outputsReady = ReadyFlag()
        let outputsWanted = ReadyFlag()
        let letters = LetterReader(topic: settings.deadLetterTopic, configuration: settings.reader, logger: logger)
        let search = TextSearch(
            topic: settings.deadLetterTopic, configuration: settings.reader, index: index, logger: logger)
        let redriver = try Redriver(
            producer: settings.producer, letters: letters, inputTopic: settings.inputTopic,
            deadLetterTopic: settings.deadLetterTopic, index: index, followThrough: followThrough,
            beforeWriting: {
                outputsWanted.set()
                await outputsReady.wait(atMost: .seconds(10))
            }, logger: logger)
        let watch = ClusterWatch(
            topics: settings.watchedTopics, inputTopic: settings.inputTopic, consumer: settings.watcher, logger: logger)
        routes = ConsoleRoutes(
            page: resources.page,
            playground: PlaygroundRoutes(maxPayloadBytes: maxPayloadBytes, resources: resources.playground),
            index: index,
            letters: letters, search: search, redriver: redriver, followThrough: followThrough, watch: watch,
            settings: settings)
        self.host = host
        self.port = port
        self.token = token
        self.settings = settings
        self.outputsReady = outputsReady
        self.outputsWanted = outputsWanted
        self.logger = logger
        self.onListening = onListening
    }

    /// Reads, watches and serves until graceful shutdown or cancellation.
    /// - Throws: ``PlaygroundServerError`` when the address cannot be bound.
    public func run() async throws {
        let (routes, settings, logger, token, host, port) = (
            self.routes, self.settings, self.logger, self.token, self.host, self.port
        )
        let (outputsReady, outputsWanted) = (self.outputsReady, self.outputsWanted)
        let onListening = self.onListening
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await TopicFollower(
                    topics: [settings.deadLetterTopic], start: .beginning, consumer: settings.reader,
                    partitionCheckInterval: settings.partitionCheckInterval, logger: logger, readers: 2,
                    onCaughtUp: { outputsWanted.set() }
                )
                .run(inPlace: { record, wasThereAtStart in
                    // A letter written before the console started cannot name a record it re-drives.
                    guard let added = routes.index.add(record: record), !wasThereAtStart, let source = added.source
                    else { return }
                    routes.followThrough.addDeadLetter(
                        topic: record.topic, partition: record.partition, offset: record.offset, source: source,
                        stage: added.stage, format: added.format)
                })
            }
            group.addTask {
                await outputsWanted.wait()
                // Four consumers share the output topics' partitions: librdkafka 2.0.2's broker thread takes
                // CPU for each partition it starts reading, growing with the square of how many it already
                // has (4,096 output partitions kept one core busy for about 3 s, slowing the first
                // answers); a quarter of them each takes a sixteenth of that, spread over the cores.
                await TopicFollower(
                    topics: settings.outputTopics.map(\.topic), start: .end, consumer: settings.reader,
                    partitionCheckInterval: settings.partitionCheckInterval, logger: logger,
                    onAssigned: { outputsReady.set() }, readers: 4
                ).run { batch in for message in batch { routes.followThrough.addOutput(message) } }
            }
            group.addTask { await routes.watch.run() }
            try await HTTPListener.serve(
                routes: routes, host: host, port: port, token: token,
                cannotBind: {
                    PlaygroundServerError(description: "cannot serve the console on \(host):\(port): \($0)")
                },
                onBound: { boundPort in
                    let shown = host.contains(":") ? "[\(host)]" : host
                    logger.notice("console: http://\(shown):\(boundPort)/")
                    onListening(boundPort)
                })
            group.cancelAll()
        }
        await routes.redriver.shutdown()
        routes.search.shutdown()
        await routes.letters.shutdown()
        logger.info("console stopped")
    }
}

/// A flag set once, which tasks can wait for with a bound.
final class ReadyFlag: Sendable {
    private let isSet = Mutex(false)
    private let changed = ChangeSignal()

    func set() {
        isSet.withLock { $0 = true }
        changed.notify()
    }

    /// Returns once the flag is set, or when the task is cancelled.
    func wait() async {
        while !Task.isCancelled {
            let generation = changed.generation
            if isSet.withLock({ $0 }) { return }
            await changed.wait(after: generation)
        }
    }

    /// Returns once the flag is set, or after `limit`.
    func wait(atMost limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while !Task.isCancelled {
            let generation = changed.generation
            let now = ContinuousClock.now
            if isSet.withLock({ $0 }) || now >= deadline { return }
            await changed.wait(after: generation, atMost: deadline - now)
        }
    }
}
