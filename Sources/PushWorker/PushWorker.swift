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
    let logger: Logger
    private let statisticsHandler: (@Sendable (String) -> Void)?
    let metrics: WorkerMetrics
    private let health: WorkerHealth
    /// ``PushWorkerConfiguration/producerRecordLimit``, worked out once (it parses the settings).
    private let recordLimit: Int

    /// Creates a worker; nothing connects before ``run()``.
    /// - Parameters:
    ///   - statisticsHandler: receives librdkafka's statistics JSON of both clients (after `metrics`).
    ///   - metrics: where counts, durations, lag and queue depths go. Default: nowhere.
    ///   - health: updated with the worker's group membership, connection, draining and fatal errors.
    public init(
        configuration: PushWorkerConfiguration, logger: Logger, statisticsHandler: (@Sendable (String) -> Void)? = nil,
        metrics: WorkerMetrics = WorkerMetrics(), health: WorkerHealth = WorkerHealth()
    ) {
        self.configuration = configuration
        self.logger = logger
        self.statisticsHandler = statisticsHandler
        self.metrics = metrics
        self.health = health
        self.recordLimit = configuration.producerRecordLimit
    }

    /// Runs until graceful shutdown (returns) or a fatal error (throws); ``WorkerHealth`` reports draining
    /// from the moment graceful shutdown starts, and the failure if one stops the worker.
    public func run() async throws {
        let health = self.health
        do {
            try await withGracefulShutdownHandler {
                try await work()
            } onGracefulShutdown: {
                health.startDraining()
            }
        } catch {
            health.fail("\(error)")
            throw error
        }
    }

    private func work() async throws {
        let limiter = InFlightLimiter(limit: configuration.maxInFlightRecords)
        let tracker = OffsetTracker()
        let metrics = self.metrics
        let health = self.health
        let userStatistics = self.statisticsHandler
        let statistics: @Sendable (String) -> Void = { json in
            metrics.recordStatistics(json)
            userStatistics?(json)
        }
        let ledger = DeliveryLedger(tracker: tracker, limiter: limiter, metrics: metrics)
        let producer = try KafkaProducer(
            configuration: configuration.producerConfiguration,
            logger: logger, statisticsHandler: statistics,
            fatalErrorHandler: { error in
                health.fail("\(error)")
                limiter.fail(error)
            },
            errorHandler: { metrics.recordKafkaError($0) },
            afterReports: { ledger.settle() })
        let consumer: KafkaConsumer
        do {
            consumer = try KafkaConsumer(
                configuration: configuration.consumerConfiguration,
                logger: logger,
                rebalanceListener: HealthTrackingRebalanceListener(
                    wrapped: OffsetTrackingRebalanceListener(
                        tracker: tracker, revokeDrainTimeout: configuration.revokeDrainTimeout),
                    health: health),
                statisticsHandler: statistics, errorHandler: { metrics.recordKafkaError($0) })
        } catch {
            await producer.shutdown(flushTimeout: .zero)
            throw error
        }
        logger.info("consuming \(configuration.inputTopic) as group \(configuration.groupId) from \(configuration.bootstrapServers)")

        let translator = Translator(configuration: configuration.translator)
        let deliveries = DeliveryContext(ledger: ledger, producer: producer, translator: translator, logger: logger)
        let runner = PipelineRunner(
            consumer: consumer, producer: producer, tracker: tracker, limiter: limiter, configuration: configuration,
            logger: logger)
        let failure = await runner.run([
            { try await consume(consumer, translator: translator, deliveries: deliveries, tracker: tracker, limiter: limiter) },
            { try await monitor(producer, limiter: limiter) },
        ])
        if let failure {
            logger.critical("worker stopped: \(failure)")
            throw failure
        }
        logger.info("worker stopped after committing its work")
    }

    /// Two stages, so translation uses every core while records keep their read order: the reading
    /// stage takes records in batches (whatever the consumer has buffered), takes a slot for each,
    /// stamps them and starts their translation as up to two tasks per batch; the producing stage
    /// awaits those tasks in read order and produces their records. Same-key order therefore holds.
    private func consume(
        _ consumer: KafkaConsumer, translator: Translator, deliveries: DeliveryContext, tracker: OffsetTracker,
        limiter: InFlightLimiter
    ) async throws {
        let (pending, continuation) = AsyncStream.makeStream(of: PendingTranslations.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for await item in pending {
                        let translations = await item.translations.value
                        let range = item.range
                        // One tracker lock for the chunk; records are still produced one by one, in order.
                        let tickets = tracker.begin(item.batch, range) { translations[$0 - range.lowerBound].records.count }
                        for index in range {
                            try await produce(
                                item.batch, at: index, translations[index - range.lowerBound],
                                ticket: tickets[index - range.lowerBound], deliveries: deliveries, limiter: limiter)
                        }
                    }
                } catch {
                    limiter.fail(error)  // wakes the reading stage, which then stops
                    throw error
                }
            }
            do {
                let batchLimit = Self.batchLimit(maxInFlight: configuration.maxInFlightRecords)
                for try await batch in consumer.messages.batches(maxCount: batchLimit).cancelOnGracefulShutdown() {
                    try await limiter.acquire(batch.count)
                    metrics.recordConsumed(batch.count)
                    let readAtMs = Int64(Date().timeIntervalSince1970 * 1000)
                    // Two halves of a large batch translate on both cores; a small one in one task.
                    let half = batch.count >= 8 ? batch.count / 2 : batch.count
                    for range in [0..<half, half..<batch.count] where !range.isEmpty {
                        let translations = Task { translate(batch, range, readAtMs: readAtMs, with: translator) }
                        continuation.yield(PendingTranslations(batch: batch, range: range, translations: translations))
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish()
                throw error
            }
            try await group.waitForAll()
        }
    }

    /// The most records one read batch holds. A batch takes its slots before any of its records is
    /// produced, so it holds at most half the bound: the other half keeps the producer busy meanwhile,
    /// and a batch never waits for slots only its own records would free.
    static func batchLimit(maxInFlight: Int) -> Int { max(1, min(512, maxInFlight / 2)) }

    /// Translates `batch[range]`, timing each record (one clock reading per record: each translation ends
    /// where the next starts), then reports their dead letters and warnings.
    private func translate(
        _ batch: [KafkaConsumerMessage], _ range: Range<Int>, readAtMs: Int64, with translator: Translator
    ) -> [Translation] {
        var translations: [Translation] = []
        translations.reserveCapacity(range.count)
        var started = DispatchTime.now().uptimeNanoseconds
        for index in range {
            translations.append(translator.translation(of: InputRecord(batch[index]), readAtMs: readAtMs))
            let finished = DispatchTime.now().uptimeNanoseconds
            metrics.recordTranslation(nanoseconds: finished &- started)
            started = finished
        }
        for translation in translations { report(translation) }
        return translations
    }

    /// Produces the records of one translated input, registered with the tracker as `ticket`; its slot is
    /// released when all are acknowledged (``DeliveryLedger``). Hands each record over without
    /// suspending unless librdkafka's queue is full.
    private func produce(
        _ batch: [KafkaConsumerMessage], at index: Int, _ translation: Translation, ticket: OffsetTracker.Ticket?,
        deliveries: DeliveryContext, limiter: InFlightLimiter
    ) async throws {
        let outputs = translation.records
        guard let ticket else {
            limiter.release()  // read under an earlier assignment: the new owner reads it again
            return
        }
        if outputs.isEmpty {
            limiter.release()
            return
        }
        let producer = deliveries.producer
        let delivery = InputDelivery(
            input: batch[index], ticket: ticket, outputs: outputs.count, tally: ProducedTally(outputs),
            context: deliveries)
        // Records are read in place (no copy of each record's fields); only a dead letter over the record
        // size limit is copied, without its value.
        var next = outputs.startIndex
        try outputs.withUnsafeBufferPointer { outputs in
            while next < outputs.endIndex {
                if outputs[next].exceeds(recordLimit: recordLimit) { return }
                guard try producer.produceIfRoom(outputs[next], to: delivery) else { return }
                next += 1
            }
        }
        while next < outputs.endIndex {
            var output = outputs[next]
            if output.exceeds(recordLimit: recordLimit) {
                logger.warning(
                    "dead letter value omitted: over the record size limit",
                    metadata: ["source": "\(ticket.partition)@\(ticket.offset)", "bytes": "\(output.value.count)"])
                output = output.withoutValue()
            }
            try await producer.produceWhenQueued(output, to: delivery)
            next += 1
        }
    }

    /// Until cancelled: checks once a second that the producer reaches a broker (until it does, for
    /// ``WorkerHealth``), and records the in-flight and producer queue gauges.
    private func monitor(_ producer: KafkaProducer, limiter: InFlightLimiter) async throws {
        var connected = false
        while !Task.isCancelled {
            if !connected {
                do {
                    let brokers = try await producer.checkConnection(timeout: .seconds(5))
                    connected = true
                    health.producerDidConnect()
                    logger.info("producer connected to a cluster of \(brokers) broker(s)")
                } catch {
                    logger.warning("producer not connected yet: \(error)")
                }
            }
            metrics.recordQueues(inFlight: limiter.count, producerQueue: producer.outstandingCount)
            try await Task.sleep(for: .seconds(1))
        }
    }
}

/// Records read, in order (`batch[range]`), with their translations running.
private struct PendingTranslations: Sendable {
    /// The whole read batch, shared by its chunks.
    let batch: [KafkaConsumerMessage]
    let range: Range<Int>
    let translations: Task<[Translation], Never>
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
