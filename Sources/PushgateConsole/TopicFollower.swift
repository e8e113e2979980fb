import Logging
import PushgateKafka
import Synchronization

/// Reads every partition of some topics, from their beginning or from their end when it starts, and
/// goes on as they grow, without joining a consumer group or committing anything. Partitions that
/// appear later (a topic created after it started, partitions added to one) are read from their
/// beginning once it finds them, every ``partitionCheckInterval``. When the cluster cannot be reached,
/// it tries again every ``retryDelay``; librdkafka reconnects a running reader by itself, and a reader
/// that failed is made again from the next offsets not yet handed over.
struct TopicFollower: Sendable {
    /// Where reading starts.
    enum Start: Sendable {
        /// Each partition's first record still stored: the topic's whole history.
        case beginning
        /// Each partition's end when the follower starts: only records written from then on.
        case end
    }

    /// The topics read.
    var topics: [String]
    /// Where reading starts.
    var start: Start
    /// The connection (its `topics` are ignored).
    var consumer: KafkaConsumerConfiguration
    /// How long to wait before trying again.
    var retryDelay: Duration = .seconds(2)
    /// How often the topics' partitions are listed, to find those that appeared since reading started.
    var partitionCheckInterval: Duration = .seconds(10)
    let logger: Logger
    /// Called each time the reader is assigned its partitions and starts reading.
    var onAssigned: @Sendable () -> Void = {}
    /// How many librdkafka consumers share the partitions, each with its share of the read-ahead
    /// (`queued.max.messages.kbytes`) and of a fetch (`fetch.max.bytes`): each has its own connection,
    /// and its fetches are parsed on its own threads, so that reading a topic whole uses more cores.
    var readers = 1
    /// Called once, when every partition has been read up to its end as it was when reading started
    /// (or nothing more came for ``quietLimit``: a partition may end in records never handed over).
    var onCaughtUp: @Sendable () -> Void = {}
    /// How long without a new record counts as caught up.
    var quietLimit: Duration = .seconds(1)

    /// Reads until the task is cancelled, handing each batch of records (never empty) to `handle`.
    func run(_ handle: @escaping @Sendable ([KafkaConsumerMessage]) -> Void) async {
        await follow(inPlace: nil) { reader, next in
            for try await batch in reader.messages.batches(maxCount: 500) {
                for message in batch { next.passed(message.topicPartition, message.offset) }
                handle(batch)
            }
        }
    }

    /// Reads until the task is cancelled, handing each record to `handle` in place, on the reader's poll
    /// thread (keep it short; with several ``readers``, from several threads at once): the fast way to read
    /// a topic whole. `handle` is also told whether the record was there when reading started.
    func run(inPlace handle: @escaping @Sendable (KafkaRecordView, _ wasThereAtStart: Bool) -> Void) async {
        await follow(inPlace: handle) { reader, _ in
            // The records go to `handle`; the sequence only ends, or throws a fatal error.
            for try await _ in reader.messages {}
        }
    }

    private func follow(
        inPlace: (@Sendable (KafkaRecordView, Bool) -> Void)?,
        read: @escaping @Sendable (KafkaConsumer, NextOffsets) async throws -> Void
    ) async {
        let next = NextOffsets()
        let caughtUp = Task { [onCaughtUp, quietLimit] in
            await next.waitUntilCaughtUp(quietLimit: quietLimit)
            if !Task.isCancelled { onCaughtUp() }
        }
        defer { caughtUp.cancel() }
        let handler = inPlace.map { handle in
            { @Sendable (record: KafkaRecordView) in
                let wasThere = next.passed(
                    KafkaTopicPartition(topic: record.topic, partition: record.partition), record.offset)
                handle(record, wasThere)
            }
        }
        var reported = false
        while !Task.isCancelled {
            let readers = ReaderSet()
            do {
                for configuration in shares() {
                    readers.add(try KafkaConsumer(configuration: configuration, logger: logger, recordHandler: handler))
                }
                let all = readers.all
                if next.isEmpty {
                    let (start, ends) = try await startOffsets(all[0])
                    next.start(at: start, ends: ends)
                }
                for (reader, share) in zip(all, next.shares(all.count)) { try await reader.assign(share) }
                reported = false
                onAssigned()
                // One reader ending (a fatal error, or closed) ends them all, and so do partitions found
                // that are not read yet; the loop makes the readers again, from the next offsets.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for reader in all {
                        group.addTask {
                            do {
                                try await read(reader, next)
                            } catch {
                                await readers.closeAll()
                                throw error
                            }
                            await readers.closeAll()
                        }
                    }
                    group.addTask {
                        if await waitForNewPartitions(all[0], next) { await readers.closeAll() }
                    }
                    do {
                        _ = try await group.next()
                    } catch {
                        group.cancelAll()
                        throw error
                    }
                    group.cancelAll()
                    try await group.waitForAll()
                }
            } catch {
                if !reported {
                    logger.warning("console: cannot read \(topics.joined(separator: ", ")) yet: \(error); trying again")
                    reported = true
                }
            }
            await readers.closeAll()
            try? await Task.sleep(for: retryDelay)  // a retry delay, not a wait for a condition
        }
    }

    /// Lists the topics' partitions every ``partitionCheckInterval`` until some are found that are not
    /// read yet, and adds them to `next` from their first offset still stored. Listing errors (a topic
    /// still missing, the cluster out of reach) are left to the next look: the readers report their own.
    /// - Returns: `true` when partitions were added; `false` when the task was cancelled.
    private func waitForNewPartitions(_ reader: KafkaConsumer, _ next: NextOffsets) async -> Bool {
        while true {
            do {
                // Genuinely periodic: nothing tells of a new partition, so the topics are listed again.
                try await Task.sleep(for: partitionCheckInterval)
            } catch {
                return false
            }
            var found: [KafkaTopicPartition: Int64] = [:]
            for topic in topics {
                guard let marks = try? await reader.listedWatermarks(topic: topic, timeoutMs: 5_000) else { continue }
                for (partition, mark) in marks {
                    found[KafkaTopicPartition(topic: topic, partition: partition)] = mark.low
                }
            }
            let added = next.add(unknown: found)
            if !added.isEmpty {
                let names = added.map(\.description).joined(separator: ", ")
                logger.info("console: reading \(added.count) new partition(s): \(names)")
                return true
            }
        }
    }

    /// The configuration of each reader: the connection's, without topics, the read-ahead and the size of
    /// a fetch's answer shared out, so that more readers hold no more than one.
    private func shares() -> [KafkaConsumerConfiguration] {
        let count = max(readers, 1)
        var configuration = consumer
        configuration.topics = []
        if count > 1 {
            for (key, fallback, least) in Self.sharedLimits {
                let whole =
                    configuration.properties[key] ?? KafkaConsumerConfiguration.defaultProperties[key] ?? fallback
                if let whole = Int(whole) { configuration.properties[key] = String(max(whole / count, least)) }
            }
        }
        return Array(repeating: configuration, count: count)
    }

    /// The limits shared out over readers: the property, its value when not set, the least share. A
    /// fetch's answer stays in memory while any of its records waits in the read-ahead, so several
    /// readers fetch 16 MiB at a time between them, not librdkafka's 50 MiB each.
    private static let sharedLimits = [
        ("queued.max.messages.kbytes", "65536", 1_024), ("fetch.max.bytes", "16777216", 1_048_576),
    ]

    /// The first offset to read in every partition of every topic. A topic the cluster does not have
    /// (a format no one deploys) is left out with a warning, so that the others are still read (and it
    /// is read from its beginning if it is created later: ``waitForNewPartitions(_:_:)``); when no
    /// topic can be read, the first error is thrown and everything is tried again later.
    /// - Returns: the first offsets, and each partition's end (its high watermark).
    private func startOffsets(_ reader: KafkaConsumer) async throws -> (
        start: [KafkaTopicPartition: Int64], ends: [KafkaTopicPartition: Int64]
    ) {
        var offsets: [KafkaTopicPartition: Int64] = [:]
        var ends: [KafkaTopicPartition: Int64] = [:]
        var failures: [(String, any Error)] = []
        for topic in topics {
            do {
                for (partition, marks) in try await reader.listedWatermarks(topic: topic, timeoutMs: 5_000) {
                    let topicPartition = KafkaTopicPartition(topic: topic, partition: partition)
                    offsets[topicPartition] = start == .beginning ? marks.low : marks.high
                    ends[topicPartition] = marks.high
                }
            } catch {
                failures.append((topic, error))
            }
        }
        if offsets.isEmpty, let (_, error) = failures.first { throw error }
        for (topic, error) in failures {
            logger.warning("console: not reading \(topic) yet: \(error); it is read once it exists")
        }
        return (offsets, ends)
    }
}
