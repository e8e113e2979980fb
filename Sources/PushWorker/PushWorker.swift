import Foundation
import Kafka
import Logging
import PushModel
import PushTranslation
import ServiceLifecycle

/// The pipeline: consume the input topic, translate each record, produce its outputs and dead letters,
/// and commit an input offset only once every output of it, and of every earlier record of its
/// partition, is acknowledged (at least once, SPEC section 7).
///
/// Records are translated and produced in read order, so records with the same key keep their order;
/// acknowledgements arrive asynchronously, with up to ``PushWorkerConfiguration/maxInFlightRecords``
/// records in flight. On graceful shutdown it stops reading, finishes and commits what is in flight,
/// flushes, leaves the group and returns. A fatal Kafka error or a failed delivery makes `run()` throw.
public struct PushWorker: Service {
    private let configuration: PushWorkerConfiguration
    private let logger: Logger
    private let statisticsHandler: (@Sendable (String) -> Void)?

    /// Creates a worker; nothing connects before ``run()``.
    /// - Parameter statisticsHandler: receives librdkafka's statistics JSON of both clients.
    public init(
        configuration: PushWorkerConfiguration, logger: Logger, statisticsHandler: (@Sendable (String) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.logger = logger
        self.statisticsHandler = statisticsHandler
    }

    /// Runs until graceful shutdown (returns) or a fatal error (throws).
    public func run() async throws {
        let limiter = InFlightLimiter(limit: configuration.maxInFlightRecords)
        let tracker = OffsetTracker()
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                bootstrapServers: configuration.bootstrapServers,
                properties: configuration.producerDefaults.merging(configuration.kafkaProperties) { $1 },
                statisticsIntervalMs: configuration.statisticsIntervalMs),
            logger: logger, statisticsHandler: statisticsHandler, fatalErrorHandler: { limiter.fail($0) })
        let consumer: KafkaConsumer
        do {
            consumer = try KafkaConsumer(
                configuration: KafkaConsumerConfiguration(
                    bootstrapServers: configuration.bootstrapServers, groupId: configuration.groupId,
                    topics: [configuration.inputTopic], properties: configuration.kafkaProperties,
                    statisticsIntervalMs: configuration.statisticsIntervalMs),
                logger: logger,
                rebalanceListener: OffsetTrackingRebalanceListener(
                    tracker: tracker, revokeDrainTimeout: configuration.revokeDrainTimeout),
                statisticsHandler: statisticsHandler)
        } catch {
            await producer.shutdown(flushTimeout: .zero)
            throw error
        }
        logger.info("consuming \(configuration.inputTopic) as group \(configuration.groupId) from \(configuration.bootstrapServers)")

        var failure: (any Error)?
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await consume(consumer, producer: producer, tracker: tracker, limiter: limiter)
                }
                group.addTask {
                    try await commitPeriodically(consumer, tracker: tracker, limiter: limiter)
                }
                _ = try await group.next()
                group.cancelAll()
                try await group.waitForAll()
            }
        } catch is CancellationError {
            failure = limiter.firstFailure
        } catch {
            failure = error
        }
        failure = failure ?? limiter.firstFailure
        if failure == nil, !(await limiter.waitUntilIdle(timeout: configuration.drainTimeout)) {
            logger.warning("\(limiter.count) records still in flight after \(configuration.drainTimeout); they stay uncommitted")
        }
        await commitFinally(consumer, tracker: tracker)
        await producer.shutdown(flushTimeout: failure == nil ? configuration.drainTimeout : .seconds(1))
        await consumer.close()
        if let failure {
            logger.critical("worker stopped: \(failure)")
            throw failure
        }
        logger.info("worker stopped after committing its work")
    }

    private func consume(
        _ consumer: KafkaConsumer, producer: KafkaProducer, tracker: OffsetTracker, limiter: InFlightLimiter
    ) async throws {
        let translator = Translator(configuration: configuration.translator)
        for try await message in consumer.messages.cancelOnGracefulShutdown() {
            try await limiter.acquire()
            let readAtMs = Int64(Date().timeIntervalSince1970 * 1000)
            let outputs = translator.translate(InputRecord(message), readAtMs: readAtMs)
            guard let ticket = tracker.begin(message, outputs: outputs.count) else {
                limiter.release()  // read under an earlier assignment: the new owner reads it again
                continue
            }
            if outputs.isEmpty {
                limiter.release()
                continue
            }
            let progress = RecordProgress(outputs: outputs.count)
            for output in outputs {
                try producer.produce(KafkaProducerMessage(output)) { result in
                    switch result {
                    case .success:
                        tracker.acknowledge(ticket)
                        if progress.finishOne() { limiter.release() }
                    case .failure(let error):
                        limiter.fail(DeliveryFailure(source: ticket, topic: output.topic, error: error))
                    }
                }
            }
        }
    }

    private func commitPeriodically(_ consumer: KafkaConsumer, tracker: OffsetTracker, limiter: InFlightLimiter) async throws {
        while !Task.isCancelled {
            try await Task.sleep(for: configuration.commitInterval)
            if let failure = limiter.firstFailure { throw failure }
            await commit(consumer, tracker: tracker)
        }
    }

    /// Commits what is finished; `false` when the commit failed (it is then offered again next time).
    @discardableResult
    private func commit(_ consumer: KafkaConsumer, tracker: OffsetTracker) async -> Bool {
        let offsets = tracker.takeCommittable()
        guard !offsets.isEmpty else { return true }
        do {
            try await consumer.commit(offsets)
            return true
        } catch {
            tracker.commitFailed(offsets)
            logger.warning("commit of \(offsets.map(\.description).joined(separator: ", ")) failed: \(error)")
            return false
        }
    }

    /// The last commit before leaving: retried a few times, as a rebalance or a broker hiccup may refuse it.
    private func commitFinally(_ consumer: KafkaConsumer, tracker: OffsetTracker) async {
        for attempt in 1...5 {
            if await commit(consumer, tracker: tracker) { return }
            if attempt < 5 { try? await Task.sleep(for: .milliseconds(200 * attempt)) }
        }
    }
}

/// Counts the outputs of one record still waiting for acknowledgement.
private final class RecordProgress: Sendable {
    private let remaining: Locked<Int>
    init(outputs: Int) { remaining = Locked(outputs) }

    /// One more output acknowledged; `true` when it was the last.
    func finishOne() -> Bool {
        remaining.withLock { count in
            count -= 1
            return count == 0
        }
    }
}

/// A record that could not be written: the worker stops, and the input record stays uncommitted.
public struct DeliveryFailure: Error, CustomStringConvertible {
    let source: OffsetTracker.Ticket
    let topic: String
    let error: KafkaError

    public var description: String {
        "cannot write a record of \(source.partition)@\(source.offset) to \(topic): \(error)"
    }
}
