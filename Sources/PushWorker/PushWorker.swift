import Foundation
import Logging
import PushModel
import PushTranslation
import PushgateKafka
import PushgateTracing
import ServiceLifecycle

/// The pipeline: consume the input topic, translate each record, produce its outputs and dead letters,
/// and commit an input offset only once every output of it, and of every earlier record of its
/// partition, is acknowledged (at least once, SPEC section 7).
///
/// One thread, the consumer's poll thread, reads each record, translates it and hands its outputs to the
/// producer, and serves the producer's delivery reports between records (``InlinePipeline``): records of a
/// partition are handled in read order, so records with the same key keep their order in every output
/// topic; acknowledgements arrive asynchronously, with up to
/// ``PushWorkerConfiguration/maxInFlightRecords`` records in flight. On graceful shutdown it stops
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
    /// The spans of SPEC section 11, `nil` when tracing is off.
    private let tracer: RecordTracer?

    /// Creates a worker; nothing connects before ``run()``.
    /// - Parameters:
    ///   - statisticsHandler: receives librdkafka's statistics JSON of both clients (after `metrics`).
    ///   - metrics: where counts, durations, lag and queue depths go. Default: nowhere.
    ///   - health: updated with the worker's group membership, connection, draining and fatal errors.
    ///   - tracer: makes one span per input record (SPEC section 11); `nil`: tracing is off.
    public init(
        configuration: PushWorkerConfiguration, logger: Logger, statisticsHandler: (@Sendable (String) -> Void)? = nil,
        metrics: WorkerMetrics = WorkerMetrics(), health: WorkerHealth = WorkerHealth(), tracer: RecordTracer? = nil
    ) {
        self.configuration = configuration
        self.logger = logger
        self.statisticsHandler = statisticsHandler
        self.metrics = metrics
        self.health = health
        self.recordLimit = configuration.producerRecordLimit
        self.tracer = tracer
    }

    /// Runs until graceful shutdown (returns) or a fatal error (throws); ``WorkerHealth`` reports draining
    /// from the moment graceful shutdown starts, and the failure if one stops the worker.
    public func run() async throws {
        let health = self.health
        let shutdownBegan = ShutdownMoment()
        do {
            try await withGracefulShutdownHandler {
                try await work(shutdownBegan: shutdownBegan)
            } onGracefulShutdown: {
                shutdownBegan.mark()
                health.startDraining()
            }
        } catch {
            health.fail("\(error)")
            throw error
        }
    }

    private func work(shutdownBegan: ShutdownMoment) async throws {
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
        let signal = try KafkaEventSignal()
        let producer = try KafkaProducer(
            configuration: configuration.producerConfiguration,
            logger: logger, statisticsHandler: statistics,
            fatalErrorHandler: { error in
                health.fail("\(error)")
                limiter.fail(error)
            },
            errorHandler: { metrics.recordKafkaError($0) },
            afterReports: { ledger.settle() }, reportServing: .caller)
        producer.signalEvents(to: signal)
        let translator = Translator(configuration: configuration.translator)
        let deliveries = DeliveryContext(
            ledger: ledger, producer: producer, translator: translator, logger: logger, recordLimit: recordLimit)
        let pipeline = InlinePipeline(
            worker: self, translator: translator, deliveries: deliveries, tracker: tracker, limiter: limiter,
            tracing: tracer.map { PipelineTracing(tracer: $0, group: configuration.groupId) })
        let consumer: KafkaConsumer
        do {
            consumer = try KafkaConsumer(
                configuration: configuration.consumerConfiguration,
                logger: logger,
                rebalanceListener: HealthTrackingRebalanceListener(
                    wrapped: OffsetTrackingRebalanceListener(
                        tracker: tracker, revokeDrainTimeout: configuration.revocationDrainTimeout,
                        serveWhileDraining: { wait in
                            producer.serveReports(waitingUpToMs: Int32((wait / .milliseconds(1)).rounded(.up)))
                        }),
                    health: health),
                statisticsHandler: statistics, errorHandler: { metrics.recordKafkaError($0) },
                inlineReading: pipeline.reading(signal: signal))
        } catch {
            await producer.shutdown(flushTimeout: .zero)
            throw error
        }
        logger.info(
            "consuming \(configuration.inputTopic) as group \(configuration.groupId) from \(configuration.bootstrapServers)"
        )

        let runner = PipelineRunner(
            consumer: consumer, producer: producer, tracker: tracker, limiter: limiter, configuration: configuration,
            shutdownBegan: shutdownBegan, logger: logger)
        let failure = await runner.run([
            { try await read(consumer, limiter: limiter) },
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

    /// While the consumer's poll thread runs the pipeline (``InlinePipeline``): returns on graceful
    /// shutdown or cancellation, having told the consumer to stop reading; throws the failure that stops
    /// the pipeline (a delivery failure, a fatal error of the consumer). Sleeps until one of them comes.
    private func read(_ consumer: KafkaConsumer, limiter: InFlightLimiter) async throws {
        defer { consumer.stopReading() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // With inline reading, `messages` yields nothing: it ends when the task is cancelled or
                // shutdown begins, and throws the consumer's fatal error.
                for try await _ in consumer.messages.cancelOnGracefulShutdown() {}
            }
            group.addTask { throw try await limiter.nextFailure() }
            try await group.next()
            group.cancelAll()
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
            // A periodic check, not a wait for a condition: nothing signals a broker becoming reachable,
            // and the gauges are sampled once a second.
            try await Task.sleep(for: .seconds(1))
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
