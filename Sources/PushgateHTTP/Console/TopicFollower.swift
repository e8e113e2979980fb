import Logging
import PushgateKafka
import Synchronization

/// Reads every partition of some topics, from their beginning or from their end when it starts, and
/// goes on as they grow, without joining a consumer group or committing anything. When the cluster
/// cannot be reached, it tries again every ``retryDelay``; librdkafka reconnects a running reader by
/// itself, and a reader that failed is made again from the next offsets not yet handed over.
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
    let logger: Logger
    /// Called each time the reader is assigned its partitions and starts reading.
    var onAssigned: @Sendable () -> Void = {}

    /// Reads until the task is cancelled, handing each batch of records (never empty) to `handle`.
    func run(_ handle: @escaping @Sendable ([KafkaConsumerMessage]) -> Void) async {
        await follow(inPlace: nil) { reader, next in
            for try await batch in reader.messages.batches(maxCount: 500) {
                next.offsets.withLock { next in
                    for message in batch { next[message.topicPartition] = message.offset + 1 }
                }
                handle(batch)
            }
        }
    }

    /// Reads until the task is cancelled, handing each record to `handle` in place, on the reader's poll
    /// thread (keep it short): the fast way to read a topic whole.
    func run(inPlace handle: @escaping @Sendable (KafkaRecordView) -> Void) async {
        await follow(inPlace: handle) { reader, _ in
            // The records go to `handle`; the sequence only ends, or throws a fatal error.
            for try await _ in reader.messages {}
        }
    }

    private func follow(
        inPlace: (@Sendable (KafkaRecordView) -> Void)?,
        read: (KafkaConsumer, NextOffsets) async throws -> Void
    ) async {
        let next = NextOffsets()
        var reported = false
        while !Task.isCancelled {
            var configuration = consumer
            configuration.topics = []
            do {
                let handler = inPlace.map { handle in
                    { @Sendable (record: KafkaRecordView) in
                        next.offsets.withLock {
                            $0[KafkaTopicPartition(topic: record.topic, partition: record.partition)] =
                                record.offset + 1
                        }
                        handle(record)
                    }
                }
                let reader = try KafkaConsumer(configuration: configuration, logger: logger, recordHandler: handler)
                do {
                    if next.offsets.withLock({ $0.isEmpty }) {
                        let start = try await startOffsets(reader)
                        next.offsets.withLock { $0 = start }
                    }
                    try await reader.assign(
                        next.offsets.withLock { $0 }.map {
                            KafkaTopicPartitionOffset(
                                topic: $0.key.topic, partition: $0.key.partition, offset: $0.value)
                        })
                    reported = false
                    onAssigned()
                    try await read(reader, next)
                } catch {
                    await reader.close()
                    throw error
                }
                await reader.close()
            } catch {
                if !reported {
                    logger.warning("console: cannot read \(topics.joined(separator: ", ")) yet: \(error); trying again")
                    reported = true
                }
            }
            try? await Task.sleep(for: retryDelay)
        }
    }

    /// The first offset to read in every partition of every topic. A topic the cluster does not have
    /// (a format no one deploys) is left out with a warning, so that the others are still read; when no
    /// topic can be read, the first error is thrown and everything is tried again later.
    private func startOffsets(_ reader: KafkaConsumer) async throws -> [KafkaTopicPartition: Int64] {
        var offsets: [KafkaTopicPartition: Int64] = [:]
        var failures: [(String, any Error)] = []
        for topic in topics {
            do {
                for (partition, marks) in try await reader.listedWatermarks(topic: topic, timeoutMs: 5_000) {
                    offsets[KafkaTopicPartition(topic: topic, partition: partition)] =
                        start == .beginning ? marks.low : marks.high
                }
            } catch {
                failures.append((topic, error))
            }
        }
        if offsets.isEmpty, let (_, error) = failures.first { throw error }
        for (topic, error) in failures {
            logger.warning("console: not reading \(topic): \(error); restart the console once it exists")
        }
        return offsets
    }
}

/// The next offset to read of each partition, for a reader made again after a failure.
final class NextOffsets: Sendable {
    let offsets = Mutex<[KafkaTopicPartition: Int64]>([:])
}
