import Foundation
import Logging
import PushModel
import PushTranslation
import PushgateKafka
import ServiceLifecycle

/// The pipeline: consume the input topic, translate each record, produce its outputs and dead letters,
/// and commit an input offset only once every output of it, and of every earlier record of its
/// partition, is acknowledged (at least once, SPEC section 7).
///
/// Records with the same key are translated and produced in read order, by the same lane (one lane per
/// core), so they keep their order in every output topic; acknowledgements arrive asynchronously, with
/// up to ``PushWorkerConfiguration/maxInFlightRecords`` records in flight. On graceful shutdown it stops
/// reading, finishes and commits what is in flight, flushes, leaves the group and returns. A fatal Kafka
/// error or a failed delivery makes `run()` throw.
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
        logger.info(
            "consuming \(configuration.inputTopic) as group \(configuration.groupId) from \(configuration.bootstrapServers)"
        )

        let translator = Translator(configuration: configuration.translator)
        let deliveries = DeliveryContext(
            ledger: ledger, producer: producer, translator: translator, logger: logger, recordLimit: recordLimit)
        let runner = PipelineRunner(
            consumer: consumer, producer: producer, tracker: tracker, limiter: limiter, configuration: configuration,
            logger: logger)
        let failure = await runner.run([
            {
                try await consume(
                    consumer, translator: translator, deliveries: deliveries, tracker: tracker, limiter: limiter)
            },
            { try await monitor(producer, limiter: limiter) },
        ])
        // Deliveries hold their context unretained: it lives until the producer has reported every record.
        withExtendedLifetime(deliveries) {}
        if let failure {
            logger.critical("worker stopped: \(failure)")
            throw failure
        }
        logger.info("worker stopped")
    }

    /// Two stages: the reading stage takes records in batches (whatever the consumer has buffered), takes
    /// a slot for each, registers them with the tracker in read order and deals each batch out to the
    /// lanes by key; each lane (one per core) translates its records and produces their outputs at
    /// once, in read order. Records with the same key always share a lane, so same-key order holds,
    /// and an input's outputs are handed to librdkafka while its translation is still in cache.
    private func consume(
        _ consumer: KafkaConsumer, translator: Translator, deliveries: DeliveryContext, tracker: OffsetTracker,
        limiter: InFlightLimiter
    ) async throws {
        let lanes = (0..<Self.laneCount).map { _ in AsyncStream.makeStream(of: LaneWork.self) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in lanes {
                group.addTask {
                    do {
                        for await work in lane.stream {
                            try Task.checkCancellation()
                            try await process(
                                work, translator: translator, deliveries: deliveries, tracker: tracker, limiter: limiter
                            )
                        }
                    } catch {
                        // Stops the reading stage at its next batch, the other lanes at their next record.
                        limiter.fail(error)
                        throw error
                    }
                }
            }
            defer { for lane in lanes { lane.continuation.finish() } }
            let batchLimit = Self.batchLimit(maxInFlight: configuration.maxInFlightRecords)
            for try await batch in consumer.messages.batches(maxCount: batchLimit).cancelOnGracefulShutdown() {
                try await limiter.acquire(batch.count)
                metrics.recordConsumed(batch.count)
                let readAtMs = Int64(Date().timeIntervalSince1970 * 1000)
                // Registered now, in read order; each input finishes when its last output is acknowledged
                // (or at once when it has none): the count is only "not finished yet".
                let generation = tracker.generation
                let tickets = tracker.begin(batch) { _ in 1 }
                for (lane, indices) in LaneWork.deal(batch, into: lanes.count).enumerated() where !indices.isEmpty {
                    lanes[lane].continuation.yield(
                        LaneWork(
                            batch: batch, indices: indices, tickets: tickets, generation: generation, readAtMs: readAtMs
                        ))
                }
            }
            for lane in lanes { lane.continuation.finish() }
            try await group.waitForAll()
        }
    }

    /// Lanes of translation: one per core but one (at least one, at most eight). librdkafka's own threads
    /// (the producer's and the consumer's broker threads, which build and parse the message sets) take
    /// about a core's worth of the work, and lanes that outnumber the cores left to them contend with
    /// those threads and with each other for librdkafka's locks: on two cores, one lane writes the same
    /// records with less CPU per input than two.
    static let laneCount = min(max(ProcessInfo.processInfo.activeProcessorCount - 1, 1), 8)

    /// The most records one read batch holds. A batch takes its slots before any of its records is
    /// produced, so it holds at most half the bound: the other half keeps the producer busy meanwhile,
    /// and a batch never waits for slots only its own records would free.
    static func batchLimit(maxInFlight: Int) -> Int { max(1, min(512, maxInFlight / 2)) }

    /// Translates the lane's records of a batch, in read order, and produces each one's outputs right
    /// after its translation. A record read under an earlier assignment (no ticket), or whose partition
    /// has been revoked or lost since, is skipped: the partition's new owner reads it again.
    private func process(
        _ work: LaneWork, translator: Translator, deliveries: DeliveryContext, tracker: OffsetTracker,
        limiter: InFlightLimiter
    ) async throws {
        let batch = work.batch
        var durations: [UInt64] = []
        durations.reserveCapacity(work.indices.count)
        defer { metrics.recordTranslations(nanoseconds: durations) }
        for index in work.indices {
            // After a delivery failure the worker stops: no later record of a key may be written before
            // the failed one is written again.
            if limiter.hasFailed { throw limiter.firstFailure ?? CancellationError() }
            guard let ticket = work.currentTicket(at: index, in: tracker) else {
                limiter.release()
                continue
            }
            let started = DispatchTime.now().uptimeNanoseconds
            // Read in place: `batch[index]` would copy the whole message (retaining all it holds) first.
            let input = batch.withUnsafeBufferPointer { InputRecord($0[index]) }
            let translation = translator.translation(of: input, readAtMs: work.readAtMs)
            durations.append(DispatchTime.now().uptimeNanoseconds &- started)
            report(translation)
            try await produce(
                input, translation, ticket: ticket, tracker: tracker, deliveries: deliveries, limiter: limiter)
        }
    }

    /// Produces the records of one translated input, registered with the tracker as `ticket`; its slot is
    /// released when all are acknowledged (``DeliveryLedger``). Hands each record over without
    /// suspending unless librdkafka's queue is full.
    private func produce(
        _ input: consuming InputRecord, _ translation: Translation, ticket: OffsetTracker.Ticket,
        tracker: OffsetTracker, deliveries: DeliveryContext, limiter: InFlightLimiter
    ) async throws {
        let outputs = translation.records
        if outputs.isEmpty {
            tracker.finish([ticket])
            limiter.release()
            return
        }
        let producer = deliveries.producer
        let delivery = InputDelivery(
            input: input, ticket: ticket, outputs: outputs.count, tally: ProducedTally(outputs), context: deliveries)
        // The records are handed over as they are; only a dead letter over the record size limit is
        // written otherwise (copied, without its value).
        var next = outputs.startIndex
        while next < outputs.endIndex, !outputs[next].exceeds(recordLimit: recordLimit),
            try producer.produceIfRoom(outputs[next], to: delivery)
        {
            next += 1
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

/// One lane's share of a read batch: the indices of its records, in read order.
struct LaneWork: Sendable {
    /// The whole read batch, shared by the lanes.
    let batch: [KafkaConsumerMessage]
    /// The lane's records of `batch`, in read order.
    let indices: [Int]
    /// The tracker's ticket of every record of `batch` (`nil`: read under an earlier assignment).
    let tickets: [OffsetTracker.Ticket?]
    /// ``OffsetTracker/generation`` before the tickets were issued: while it is unchanged, they are current.
    let generation: UInt64
    /// When the batch was read, in milliseconds since the epoch.
    let readAtMs: Int64

    /// The ticket of `batch[index]` if its record is still to be produced: `nil` when it was read under an
    /// earlier assignment, or when a rebalance since the batch was read revoked its partition (the lock is
    /// taken only after a rebalance).
    func currentTicket(at index: Int, in tracker: OffsetTracker) -> OffsetTracker.Ticket? {
        guard let ticket = tickets[index] else { return nil }
        return tracker.generation == generation || tracker.isCurrent(ticket) ? ticket : nil
    }

    /// The indices of `batch` for each of `lanes` lanes, in read order: records with the same key share
    /// a lane (an FNV-1a hash of the key); records without a key, which have no order to keep (their
    /// outputs go to random partitions), take the lanes in turn.
    static func deal(_ batch: [KafkaConsumerMessage], into lanes: Int) -> [[Int]] {
        var dealt = [[Int]](repeating: [], count: lanes)
        guard lanes > 1 else {
            dealt[0] = Array(batch.indices)
            return dealt
        }
        for index in dealt.indices { dealt[index].reserveCapacity(batch.count / lanes + 8) }
        batch.withUnsafeBufferPointer { batch in
            for index in batch.indices {
                dealt[lane(of: batch[index], at: index, lanes: lanes)].append(index)
            }
        }
        return dealt
    }

    /// The lane of `message`, at `index` of its batch, among `lanes`.
    static func lane(of message: KafkaConsumerMessage, at index: Int, lanes: Int) -> Int {
        // The key is read in place through optional chaining (binding it would retain and release it).
        let hash = message.key?.withUnsafeBufferPointer { key in
            var hash: UInt32 = 2_166_136_261
            for byte in key { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            return hash
        }
        guard let hash else { return index % lanes }
        return Int(hash % UInt32(lanes))
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
