import Kafka
import Logging
import ServiceLifecycle

/// A baseline for ``PushWorker``'s throughput: the same consume → produce → commit pipeline with no
/// translation. Every input record is written, key, value and headers unchanged, to one output topic,
/// or (for `pushgate bench pipeline`'s `floor`) replaced by the records a closure gives for it.
///
/// It uses the worker's parts and settings so that only the translation differs: the same consumer and
/// producer configuration (idempotent, `acks=all`, the worker's producer defaults), the same in-flight
/// bound, the same ``OffsetTracker`` commit discipline (an offset is committed only once its output is
/// acknowledged, every ``PushWorkerConfiguration/commitInterval``) and the same graceful shutdown.
/// `pushgate bench pipeline` compares the two.
public struct Passthrough: Service {
    /// The records a passthrough writes for each input.
    public enum Outputs: Sendable {
        /// The input record, key, value and headers unchanged, to this topic.
        case unchanged(topic: String)
        /// The records this gives for the input, none or several. It exists for a benchmark:
        /// `pushgate bench pipeline`'s `floor` writes the worker's outputs without translating.
        case fannedOut(@Sendable (KafkaConsumerMessage) -> [KafkaProducerMessage])
    }

    private let configuration: PushWorkerConfiguration
    private let outputs: Outputs
    private let logger: Logger

    /// Creates a passthrough reading `configuration.inputTopic` and writing to `outputTopic`; the
    /// translator settings of `configuration` are ignored except for the producer's record size limit.
    public init(configuration: PushWorkerConfiguration, outputTopic: String, logger: Logger) {
        self.init(configuration: configuration, outputs: .unchanged(topic: outputTopic), logger: logger)
    }

    /// Creates a passthrough reading `configuration.inputTopic` and writing `outputs` of each input; the
    /// translator settings of `configuration` are ignored except for the producer's record size limit.
    public init(configuration: PushWorkerConfiguration, outputs: Outputs, logger: Logger) {
        self.configuration = configuration
        self.outputs = outputs
        self.logger = logger
    }

    /// Runs until graceful shutdown (returns) or a fatal error or failed delivery (throws).
    public func run() async throws {
        let limiter = InFlightLimiter(limit: configuration.maxInFlightRecords)
        let tracker = OffsetTracker()
        let ledger = DeliveryLedger(tracker: tracker, limiter: limiter, metrics: WorkerMetrics())
        let producer = try KafkaProducer(
            configuration: configuration.producerConfiguration,
            logger: logger, fatalErrorHandler: { limiter.fail($0) }, afterReports: { ledger.settle() })
        let consumer: KafkaConsumer
        do {
            consumer = try KafkaConsumer(
                configuration: configuration.consumerConfiguration,
                logger: logger,
                rebalanceListener: OffsetTrackingRebalanceListener(
                    tracker: tracker, revokeDrainTimeout: configuration.revokeDrainTimeout))
        } catch {
            await producer.shutdown(flushTimeout: .zero)
            throw error
        }

        let runner = PipelineRunner(
            consumer: consumer, producer: producer, tracker: tracker, limiter: limiter, configuration: configuration,
            logger: logger)
        let deliveries = DeliveryContext(ledger: ledger, producer: producer, translator: nil, logger: logger)
        let failure = await runner.run([
            { try await forward(consumer, deliveries: deliveries, tracker: tracker, limiter: limiter) }
        ])
        if let failure { throw failure }
    }

    private func forward(
        _ consumer: KafkaConsumer, deliveries: DeliveryContext, tracker: OffsetTracker, limiter: InFlightLimiter
    ) async throws {
        // Whole batches as the worker reads them: one slot acquisition and one tracker lock per batch.
        let batchLimit = PushWorker.batchLimit(maxInFlight: configuration.maxInFlightRecords)
        let producer = deliveries.producer
        for try await batch in consumer.messages.batches(maxCount: batchLimit).cancelOnGracefulShutdown() {
            try await limiter.acquire(batch.count)
            let tickets = tracker.begin(batch) { _ in 1 }
            for index in batch.indices {
                // After a delivery failure it stops at the next record, as the worker does.
                if limiter.hasFailed { throw limiter.firstFailure ?? CancellationError() }
                guard let ticket = tickets[index] else {
                    limiter.release()  // read under an earlier assignment: the new owner reads it again
                    continue
                }
                let message = batch[index]
                switch outputs {
                case .unchanged(let topic):
                    let output = KafkaProducerMessage(
                        topic: topic, key: message.key, value: message.value, headers: message.headers)
                    let delivery = InputDelivery(
                        inputTimestampMs: message.timestampMs, ticket: ticket, outputs: 1, tally: ProducedTally(),
                        context: deliveries)
                    if try !producer.produceIfRoom(output, to: delivery) {
                        try await producer.produceWhenQueued(output, to: delivery)
                    }
                case .fannedOut(let outputsOf):
                    try await produce(
                        outputsOf(message), of: message, ticket: ticket, deliveries: deliveries, tracker: tracker,
                        limiter: limiter)
                }
            }
        }
    }

    /// Writes `records` for `input`; an input without records is finished at once.
    private func produce(
        _ records: [KafkaProducerMessage], of input: KafkaConsumerMessage, ticket: OffsetTracker.Ticket,
        deliveries: DeliveryContext, tracker: OffsetTracker, limiter: InFlightLimiter
    ) async throws {
        guard !records.isEmpty else {
            tracker.finish([ticket])
            limiter.release()
            return
        }
        let delivery = InputDelivery(
            inputTimestampMs: input.timestampMs, ticket: ticket, outputs: records.count, tally: ProducedTally(),
            context: deliveries)
        // In place, as the worker hands its outputs over: no copy of each record while there is room.
        var next = 0
        try records.withUnsafeBufferPointer { buffer in
            while next < buffer.count, try deliveries.producer.produceIfRoom(buffer[next], to: delivery) { next += 1 }
        }
        while next < records.count {
            try await deliveries.producer.produceWhenQueued(records[next], to: delivery)
            next += 1
        }
    }
}
