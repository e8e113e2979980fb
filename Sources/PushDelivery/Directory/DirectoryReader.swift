import Logging
import PushgateKafka
import ServiceLifecycle
import Synchronization

/// Reads the device directory topic (SPEC 10.1): every partition from its beginning, with no consumer
/// group (the partitions are assigned, nothing is committed), then follows it. Each record is handed to
/// ``handle`` in place, on the consumer's poll thread, in offset order within its partition.
///
/// ``waitUntilCaughtUp()`` returns once every partition has been read up to the end it had when reading
/// started (what the worker's `/ready` waits for). When the cluster cannot be reached or the topic does
/// not exist yet, it logs a warning and tries again every ``retryDelay``; a reader made again starts where
/// the last one stopped.
public final class DirectoryReader: Service, Sendable {
    /// One record of the directory topic, as read.
    public struct Record: Sendable {
        /// Its partition.
        public var partition: Int32
        /// Its offset.
        public var offset: Int64
        /// Its key (`nil`: a null key).
        public var key: [UInt8]?
        /// Its value (`nil`: a null value, a tombstone).
        public var value: [UInt8]?
    }

    /// The topic read. Default: `push.devices`.
    public let topic: String
    /// How long to wait before trying again after a failure. Default: 2 s.
    public let retryDelay: Duration
    private let consumer: KafkaConsumerConfiguration
    private let logger: Logger
    private let handle: @Sendable (Record) -> Void
    private let progress = DirectoryProgress()
    private let failureReported = Mutex(false)

    /// The directory topic's default name.
    public static let defaultTopic = "push.devices"

    /// Creates a reader of `topic` that hands every record to `handle` (on the poll thread: keep it short).
    /// - Parameters:
    ///   - bootstrapServers: the cluster.
    ///   - properties: librdkafka properties of the consumer (`-X`), e.g. TLS and SASL.
    public init(
        topic: String = DirectoryReader.defaultTopic, bootstrapServers: String, properties: [String: String] = [:],
        retryDelay: Duration = .seconds(2), logger: Logger, handle: @escaping @Sendable (Record) -> Void
    ) {
        var properties = properties
        // Read-ahead kept small: a directory record is small, and the devices are what the memory is for.
        properties["queued.max.messages.kbytes"] = properties["queued.max.messages.kbytes"] ?? "4096"
        // A group id librdkafka wants; no group is joined (the partitions are assigned) and nothing is committed.
        self.consumer = KafkaConsumerConfiguration(
            bootstrapServers: bootstrapServers, groupId: "pushgate-directory-reader", topics: [],
            properties: properties)
        self.topic = topic
        self.retryDelay = retryDelay
        self.logger = logger
        self.handle = handle
    }

    /// Creates a reader that applies every record to `directory`, checked by `parser` (SPEC 10.1): an
    /// invalid record is logged at warning level with its partition, offset and first broken rule (never
    /// its value) and counted by the directory.
    public convenience init(
        topic: String = DirectoryReader.defaultTopic, bootstrapServers: String, properties: [String: String] = [:],
        directory: DeviceDirectory, parser: DirectoryRecordParser, retryDelay: Duration = .seconds(2),
        logger: Logger
    ) {
        self.init(
            topic: topic, bootstrapServers: bootstrapServers, properties: properties, retryDelay: retryDelay,
            logger: logger
        ) { record in
            let entry = parser.entry(key: record.key, value: record.value)
            if case .invalid(_, let violation) = entry {
                logger.warning(
                    "directory: ignored the record at \(topic)[\(record.partition)]@\(record.offset): \(violation)")
            }
            directory.apply(entry)
        }
    }

    /// Whether every partition has been read up to the end it had when reading started.
    public var isCaughtUp: Bool { progress.isCaughtUp }

    /// Returns once every partition has been read up to the end it had when reading started (at once if it
    /// has), or when the calling task is cancelled.
    public func waitUntilCaughtUp() async { await progress.waitUntilCaughtUp() }

    /// Reads and follows the topic until the task is cancelled or a graceful shutdown begins.
    public func run() async throws {
        await cancelWhenGracefulShutdown { await self.follow() }
    }

    private func follow() async {
        while !Task.isCancelled {
            do {
                try await readOnce()
            } catch {
                let first = failureReported.withLock { reported in
                    defer { reported = true }
                    return !reported
                }
                if first && !Task.isCancelled {
                    logger.warning("directory: cannot read \(topic) yet: \(error); trying again")
                }
            }
            try? await Task.sleep(for: retryDelay)  // a retry delay, not a wait for a condition
        }
    }

    /// Makes a consumer, assigns every partition from where reading stands, and reads until the consumer
    /// fails or the task is cancelled.
    private func readOnce() async throws {
        let progress = self.progress
        let handle = self.handle
        let reader = try KafkaConsumer(
            configuration: consumer, logger: logger,
            recordHandler: { view in
                let key = view.withKey { $0.map { Array($0) } }
                let value = view.valueIsNull ? nil : view.withValue { Array($0) }
                handle(Record(partition: view.partition, offset: view.offset, key: key, value: value))
                progress.advance(partition: view.partition, to: view.offset + 1)
            })
        try await withTaskCancellationHandler {
            do {
                try await read(reader)
            } catch {
                await reader.close()
                throw error
            }
            await reader.close()
        } onCancel: {
            Task { await reader.close() }
        }
    }

    private func read(_ reader: KafkaConsumer) async throws {
        if !progress.isStarted {
            let marks = try await reader.listedWatermarks(topic: topic, timeoutMs: 5_000)
            guard !marks.isEmpty else { throw NoPartitions(topic: topic) }
            progress.start(first: marks.mapValues(\.low), ends: marks.mapValues(\.high))
            logger.info("directory: reading \(topic) (\(marks.count) partitions) from its beginning")
        }
        try await reader.assign(
            progress.nextOffsets.map { KafkaTopicPartitionOffset(topic: topic, partition: $0, offset: $1) })
        failureReported.withLock { $0 = false }
        let watcher = Task { try await self.watchPositions(reader) }
        defer { watcher.cancel() }
        // The records go to the handler; the sequence only ends (the reader closed) or throws a fatal error.
        for try await _ in reader.messages {}
    }

    /// Until caught up, asks the consumer's positions every half second: a partition whose last records are
    /// never handed over (transaction markers) is caught up when its position reaches its end.
    private func watchPositions(_ reader: KafkaConsumer) async throws {
        let partitions = progress.partitions.map { KafkaTopicPartition(topic: topic, partition: $0) }
        while !progress.isCaughtUp {
            // Periodic by nature: librdkafka tells of no position change past skipped records.
            try await Task.sleep(for: .milliseconds(500))
            for (partition, position) in try await reader.positions(partitions) {
                if let position { progress.advance(partition: partition.partition, to: position) }
            }
        }
    }

    /// The cluster lists the topic without partitions.
    struct NoPartitions: Error, CustomStringConvertible {
        var topic: String
        var description: String { "the cluster lists no partitions of \(topic)" }
    }
}
