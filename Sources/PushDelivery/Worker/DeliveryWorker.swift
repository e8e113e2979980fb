import Logging
import PushModel
import PushgateKafka
import PushgateTracing
import ServiceLifecycle
import Synchronization

/// `pushgate deliver`'s worker (SPEC 10.2, 10.6, 10.8), a swift-service-lifecycle `Service`: once the
/// directory is read up to its end, it reads the delivered topics of the enabled platforms as a
/// consumer group, delivers each record (``RecordDelivery``) in a task of its own, writes the receipts,
/// and commits a partition's offset only when every device of that record and of every earlier record of
/// the partition has a final outcome and every receipt written for them is acknowledged (the
/// ``OffsetTracker`` of `pushgate run`, one output per record: its delivery).
///
/// On graceful shutdown it stops reading, lets the records in flight finish within
/// ``DeliveryConfiguration/shutdownTimeout``'s share (``ShutdownBudget``), abandons the others (their
/// records stay uncommitted and are read again), commits what is final, flushes the receipts and leaves
/// the group. A receipt that cannot be written or a fatal Kafka error makes `run()` throw.
public struct DeliveryWorker: Service {
    private let configuration: DeliveryConfiguration
    private let services: DeliveryServices
    private let logger: Logger
    private let metrics: DeliveryMetrics
    private let health: WorkerHealth
    /// The pauses of the platforms' credentials, which `/ready` names.
    public let pauses: CredentialPauses
    /// Set once the directory is read up to its end.
    let directoryRead = ReadyFlag()
    /// The spans of SPEC section 11; `nil`: tracing is off.
    private let tracer: RecordTracer?

    /// Creates a worker; nothing connects before ``run()``. `health`'s readiness also waits for the
    /// directory and for no platform to be paused.
    /// `tracer` makes the spans of SPEC section 11 (`nil`: tracing is off).
    public init(
        configuration: DeliveryConfiguration, services: DeliveryServices, logger: Logger,
        metrics: DeliveryMetrics = DeliveryMetrics(), health: WorkerHealth = WorkerHealth(),
        tracer: RecordTracer? = nil
    ) {
        self.configuration = configuration
        self.services = services
        self.logger = logger
        self.metrics = metrics
        self.health = health
        self.tracer = tracer
        let pauses = CredentialPauses(
            policy: configuration.retry, logger: logger, onChange: { metrics.recordPaused(platform: $0, $1) })
        self.pauses = pauses
        let directoryRead = self.directoryRead
        health.addReadinessCheck { directoryRead.isSet ? nil : "reading the device directory" }
        health.addReadinessCheck { pauses.notReadyReason }
    }

    /// Runs until graceful shutdown (returns) or a fatal error (throws).
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
        logger.info("reading the device directory before any delivered record")
        do {
            let directoryCaughtUp = services.directoryCaughtUp
            try await cancelWhenGracefulShutdown { try await directoryCaughtUp() }
        } catch is CancellationError {
            return
        }
        if Task.isCancelled || Task.isShuttingDownGracefully { return }
        directoryRead.set()
        logger.info("device directory read; delivering")

        let limiter = InFlightLimiter(limit: configuration.maxInFlightRecords)
        let tracker = OffsetTracker()
        let health = self.health
        let producer = try KafkaProducer(
            configuration: configuration.producerConfiguration, logger: logger,
            fatalErrorHandler: { error in
                health.fail("\(error)")
                limiter.fail(error)
            })
        let tasks = RecordTasks()
        let consumer: KafkaConsumer
        do {
            consumer = try KafkaConsumer(
                configuration: configuration.consumerConfiguration, logger: logger,
                rebalanceListener: HealthTrackingRebalanceListener(
                    wrapped: RecordCancellingRebalanceListener(
                        wrapped: OffsetTrackingRebalanceListener(
                            tracker: tracker, revokeDrainTimeout: configuration.revokeDrainTimeout),
                        tasks: tasks),
                    health: health))
        } catch {
            await producer.shutdown(flushTimeout: .zero)
            throw error
        }
        logger.info(
            "delivering \(configuration.deliveredTopics.joined(separator: ", ")) as group \(configuration.groupId)")
        let delivery = RecordDelivery(
            attempts: PushAttempts(
                senders: services.senders, maxInFlightRequests: configuration.maxInFlightRequests, pauses: pauses,
                policy: configuration.retry, metrics: metrics, tracer: tracer),
            directory: services.directory,
            receipts: KafkaReceiptWriter(producer: producer, topic: configuration.receiptsTopic),
            selection: configuration.receipts, bundleID: configuration.apns.bundleID, metrics: metrics,
            logger: logger, tracer: tracer, group: configuration.groupId)
        let committer = OffsetCommitter(consumer: consumer, tracker: tracker, logger: logger)
        var failure: (any Error)?
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Cancelled at graceful shutdown, also while it waits for an in-flight slot.
                    try await cancelWhenGracefulShutdown {
                        try await read(consumer, delivery: delivery, tracker: tracker, limiter: limiter, tasks: tasks)
                    }
                }
                group.addTask { throw try await limiter.nextFailure() }
                group.addTask {
                    try await committer.commitPeriodically(every: configuration.commitInterval, limiter: limiter)
                }
                group.addTask { try await monitor(producer, limiter: limiter) }
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
        await stop(
            consumer: consumer, producer: producer, tracker: tracker, limiter: limiter, tasks: tasks,
            committer: committer, failure: failure)
        if let failure {
            logger.critical("deliver stopped: \(failure)")
            throw failure
        }
        logger.info("deliver stopped")
    }

    /// Reads until graceful shutdown or cancellation; each record is delivered in a task of its own.
    private func read(
        _ consumer: KafkaConsumer, delivery: RecordDelivery, tracker: OffsetTracker, limiter: InFlightLimiter,
        tasks: RecordTasks
    ) async throws {
        let configuration = self.configuration
        let (logger, metrics) = (self.logger, self.metrics)
        let pipeline = RecordPipeline(delivery: delivery, tracker: tracker, limiter: limiter, tasks: tasks)
        for try await message in consumer.messages {
            try await limiter.acquire()
            guard let ticket = tracker.begin(message, outputs: 1) else {
                limiter.release()
                continue
            }
            guard let record = DeliveredRecord(message, formatOfTopic: configuration.format(ofTopic:)) else {
                logger.warning(
                    "\(message.topic):\(message.partition):\(message.offset): no delivered format (pushgate-format header or topic); skipped"
                )
                tracker.acknowledge(ticket)
                limiter.release()
                continue
            }
            metrics.recordInFlight(limiter.count)
            pipeline.start(record, ticket: ticket)
        }
    }

    /// Until cancelled: checks that the producer reaches a broker (for ``WorkerHealth``), and records the
    /// in-flight gauge once a second.
    private func monitor(_ producer: KafkaProducer, limiter: InFlightLimiter) async throws {
        var connected = false
        while !Task.isCancelled {
            if !connected {
                do {
                    _ = try await producer.checkConnection(timeout: .seconds(5))
                    connected = true
                    health.producerDidConnect()
                } catch {
                    logger.warning("receipts producer not connected yet: \(error)")
                }
            }
            metrics.recordInFlight(limiter.count)
            // A periodic sample, not a wait for a condition.
            try await Task.sleep(for: .seconds(1))
        }
    }

    /// The stop sequence of SPEC 7 within ``DeliveryConfiguration/shutdownTimeout``: wait for the
    /// records in flight, abandon the rest, commit what is final, flush the receipts, leave the group.
    private func stop(
        consumer: KafkaConsumer, producer: KafkaProducer, tracker: OffsetTracker, limiter: InFlightLimiter,
        tasks: RecordTasks, committer: OffsetCommitter, failure: (any Error)?
    ) async {
        let budget = ShutdownBudget(total: configuration.shutdownTimeout)
        if failure == nil, !(await limiter.waitUntilIdle(timeout: budget.left(until: .drained))) {
            logger.warning(
                "\(limiter.count) records still in flight at shutdown: abandoned, uncommitted, read again by the next owner"
            )
        }
        tasks.cancelAll()
        if !(await committer.commitFinally(before: budget.deadline(of: .committed))) {
            logger.warning("the last commit failed: the records finished since the one before are read again")
        }
        await producer.shutdown(flushTimeout: budget.left(until: .flushed))
        tracker.pipelineDidStop()
        if !(await consumer.close(timeout: budget.left(until: .left))) {
            logger.warning("leaving the group did not finish within the shutdown timeout; stopping without it")
        }
    }
}

/// A receipt that could not be written: the worker stops, and the record stays uncommitted.
public struct ReceiptFailure: Error, CustomStringConvertible {
    /// The delivered record, `TOPIC:PARTITION:OFFSET`.
    public let record: String
    /// Why.
    public let error: any Error

    public var description: String { "cannot write a receipt of \(record): \(error)" }
}

/// Set once, read from any thread.
final class ReadyFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
