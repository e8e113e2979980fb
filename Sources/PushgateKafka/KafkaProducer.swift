import CRdKafka
import Foundation
import Logging
import Synchronization

/// An idempotent Kafka producer (`acks=all`) that reports every record's delivery.
///
/// Records are handed to librdkafka without waiting; a dedicated poll thread receives the brokers'
/// acknowledgements and passes each record's report to its ``KafkaDeliveryReceiver`` (or delivery
/// handler), then calls `afterReports` once per poll. Records with the same key go to the same partition
/// and, thanks to idempotence with at most 5 requests in flight, keep their order.
public final class KafkaProducer: Sendable {
    /// The outcome of one record: its delivery report or the error that stopped it.
    public typealias DeliveryHandler = @Sendable (Result<KafkaDeliveryReport, KafkaError>) -> Void

    @usableFromInline
    let client: RDKafkaClient
    let pollThread: PollThread
    /// Set once, by ``shutdown(flushTimeout:)``; read for every record, without a lock.
    @usableFromInline
    let closed = Atomic<Bool>(false)
    /// Calls of ``produce(_:to:)`` past the check of `closed` that have not returned: ``shutdown(flushTimeout:)``
    /// waits for them before it destroys the client, so a record handed over at that moment never
    /// meets a destroyed handle.
    @usableFromInline
    let producing = Atomic<Int>(0)
    /// ``shutdown(flushTimeout:)`` waiting for `producing` to reach zero, resumed by the call that takes
    /// it there (``endProducing()``); `nil` while nothing waits. Only the first call of the shutdown waits.
    let producingDrained = Mutex<CheckedContinuation<Void, Never>?>(nil)
    @usableFromInline
    let topicHandles = RDKafkaTopicHandles()
    private let afterReports: (@Sendable () -> Void)?
    /// The main queue of a producer whose events wake a ``KafkaEventSignal``, and the signal.
    private let signalled = Mutex<(queue: RDKafkaPointer, signal: KafkaEventSignal)?>(nil)

    /// Which thread serves a producer's delivery reports and other events.
    public enum ReportServing: Sendable {
        /// The producer's own poll thread.
        case ownThread
        /// The application's, through ``KafkaProducer/serveReports(waitingUpToMs:)``: the thread that
        /// reads and produces serves them between records, with no thread between it and librdkafka.
        case caller
    }

    /// Creates a producer and starts its poll thread.
    /// - Parameters:
    ///   - statisticsHandler: receives librdkafka's statistics JSON every `statisticsIntervalMs`, on the
    ///     poll thread.
    ///   - fatalErrorHandler: called once, on a librdkafka thread, when a fatal error is raised.
    ///   - errorHandler: called, on a librdkafka thread, for every error librdkafka reports to the
    ///     application (fatal or not, e.g. `_TRANSPORT`), after it is logged; for metrics.
    ///   - afterReports: called on the poll thread after each poll or flush that served delivery reports
    ///     (or other events): receivers may gather what their reports say and act on it once per batch.
    public init(
        configuration: KafkaProducerConfiguration, logger: Logger,
        statisticsHandler: (@Sendable (String) -> Void)? = nil,
        fatalErrorHandler: (@Sendable (KafkaError) -> Void)? = nil,
        errorHandler: (@Sendable (KafkaError) -> Void)? = nil,
        afterReports: (@Sendable () -> Void)? = nil,
        reportServing: ReportServing = .ownThread
    ) throws(KafkaError) {
        let callbacks = RDKafkaCallbacks(
            logger: logger, statisticsHandler: statisticsHandler, fatalErrorHandler: fatalErrorHandler,
            errorHandler: errorHandler)
        let client = try RDKafkaClient.make(
            kind: .producer, properties: configuration.librdkafkaProperties, callbacks: callbacks
        ) { rdConfiguration in
            rd_kafka_conf_set_dr_msg_cb(rdConfiguration) { handle, message, _ in
                guard let message, let opaque = message.pointee._private else { return }
                // Retained when the record was handed over; released after its one report.
                let receiver = Unmanaged<KafkaDeliveryReceiver>.fromOpaque(opaque).takeRetainedValue()
                receiver.received(KafkaDelivery(message: message, handle: handle))
            }
        }
        self.client = client
        let timeout = configuration.pollTimeoutMs
        self.afterReports = afterReports
        switch reportServing {
        case .ownThread:
            self.pollThread = PollThread(name: "kafka-producer-poll") {
                if rd_kafka_poll(client.handle, timeout) > 0 { afterReports?() }
            }
        case .caller:
            // Commands only: flushing and shutting down.
            self.pollThread = PollThread(name: "kafka-producer", poll: nil)
        }
        pollThread.start()
    }

    /// Serves the delivery reports (and other events) that have arrived, waiting up to `milliseconds`
    /// for the first, then calls `afterReports` if there were any; `false` when there were none. For a
    /// producer created with ``ReportServing/caller``, on a thread that may block. Once the producer is
    /// shut down (its shutdown serves the rest), it only waits: a caller's loop does not spin.
    @discardableResult
    public func serveReports(waitingUpToMs milliseconds: Int32) -> Bool {
        if closed.load(ordering: .sequentiallyConsistent) {
            // Not counted in `producing`: the shutdown does not wait for this.
            if milliseconds > 0 { usleep(UInt32(milliseconds) * 1000) }
            return false
        }
        producing.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { endProducing() }
        if closed.load(ordering: .sequentiallyConsistent) { return false }
        guard rd_kafka_poll(client.handle, milliseconds) > 0 else { return false }
        afterReports?()
        return true
    }

    /// Has `signal` woken whenever an event (a delivery report) arrives for ``serveReports(waitingUpToMs:)``.
    public func signalEvents(to signal: KafkaEventSignal) {
        guard let queue = rd_kafka_queue_get_main(client.handle) else { return }
        signal.watch(queue)
        signalled.withLock { $0 = (RDKafkaPointer(queue), signal) }
    }

    /// The fatal error librdkafka raised, if any: the producer can no longer deliver records.
    public var fatalError: KafkaError? { client.fatalError }

    /// How many records wait for their delivery report.
    public var outstandingCount: Int { client.withLiveHandle { Int(rd_kafka_outq_len($0)) } ?? 0 }

    /// Hands `message` to librdkafka without blocking; `onDelivery` runs on the poll thread when the
    /// broker acknowledges the record or gives up on it.
    /// - Throws: ``KafkaError`` when the record is refused at once (queue full, too large, closed producer).
    public func produce(_ message: some KafkaProducible, onDelivery: @escaping DeliveryHandler) throws(KafkaError) {
        try produce(message, to: ClosureDeliveryReceiver(onDelivery, topic: message.topic))
    }

    /// Hands `record` to librdkafka without blocking; `receiver` gets its delivery report on the poll
    /// thread. The fast path: nothing is allocated or copied per record on the Swift side. Inlinable, so
    /// that it is specialized for the caller's record type: generic, it would read the record through
    /// its witness table, and a record passed to it by value may be copied first.
    /// - Throws: ``KafkaError`` when the record is refused at once (queue full, too large, closed producer).
    @inlinable
    public func produce(_ record: some KafkaProducible, to receiver: KafkaDeliveryReceiver & Sendable)
        throws(KafkaError)
    {
        producing.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { endProducing() }
        if closed.load(ordering: .sequentiallyConsistent) { throw KafkaError.client("the producer is shut down") }
        let context = Unmanaged.passRetained(receiver)
        let topicHandle = topicHandles.handle(for: record.topic, in: client.handle)
        let failure = RDKafkaProduceArguments.withArguments(
            record, topicHandle: topicHandle, opaque: context.toOpaque()
        ) {
            values in
            rd_kafka_produceva(client.handle, values.baseAddress, values.count)
        }
        if let failure {
            context.release()
            throw KafkaError(consuming: failure)
        }
    }

    /// Hands `record` over like ``produce(_:to:)`` but returns `false`, having handed nothing over, when
    /// the local queue is full (`_QUEUE_FULL`): the caller's fast path, with no suspension.
    @inlinable
    public func produceIfRoom(_ record: some KafkaProducible, to receiver: KafkaDeliveryReceiver & Sendable)
        throws(KafkaError) -> Bool
    {
        try Self.handedOver { () throws(KafkaError) in try produce(record, to: receiver) }
    }

    /// Hands `record` over like ``produceIfRoom(_:to:)``, reading it where it lies: `inout` only so that
    /// the caller passes the record's address (a record read out of an array or buffer to be passed by
    /// value is copied first, every reference it holds retained and released); it is not changed.
    @inlinable
    public func produceIfRoom(
        inPlace record: inout some KafkaProducible, to receiver: KafkaDeliveryReceiver & Sendable
    ) throws(KafkaError) -> Bool {
        try Self.handedOver { () throws(KafkaError) in try produce(record, to: receiver) }
    }

    /// Whether `produce` handed its record over: `false` when librdkafka's queue was full, any other
    /// refusal thrown.
    @inlinable
    static func handedOver(_ produce: () throws(KafkaError) -> Void) throws(KafkaError) -> Bool {
        do {
            try produce()
            return true
        } catch {
            if error.isQueueFull { return false }
            throw error
        }
    }

    /// Hands `message` over like ``produce(_:onDelivery:)``, but while the local queue is full
    /// (`_QUEUE_FULL`) waits for delivery reports to make room instead of failing: backpressure.
    public func produceWhenQueued(_ message: some KafkaProducible, onDelivery: @escaping DeliveryHandler) async throws {
        try await produceWhenQueued(message, to: ClosureDeliveryReceiver(onDelivery, topic: message.topic))
    }

    /// Hands `record` over like ``produce(_:to:)``, but while the local queue is full (`_QUEUE_FULL`)
    /// waits for delivery reports to make room instead of failing: backpressure.
    public func produceWhenQueued(_ record: some KafkaProducible, to receiver: KafkaDeliveryReceiver & Sendable)
        async throws
    {
        var pause = Duration.milliseconds(1)
        while try !produceIfRoom(record, to: receiver) {
            // A back-off, not a wait for a signal: librdkafka does not tell when its queue has room, and the
            // reports that make it are served by whichever thread the owner chose (`ReportServing`).
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(100))
        }
    }

    /// Writes `message` and returns once the broker has acknowledged it.
    public func send(_ message: KafkaProducerMessage) async throws(KafkaError) -> KafkaDeliveryReport {
        let outcome: Result<KafkaDeliveryReport, KafkaError> = await withCheckedContinuation { continuation in
            do throws(KafkaError) {
                try produce(message) { continuation.resume(returning: $0) }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try outcome.get()
    }

    /// Waits, on the poll thread, until every record handed over so far has its delivery report.
    /// - Throws: ``KafkaError`` (`_TIMED_OUT`) when records are still outstanding after `timeout`.
    public func flush(timeout: Duration = .seconds(30)) async throws(KafkaError) {
        let client = self.client
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let afterReports = self.afterReports
        try await pollThread.run { () throws(KafkaError) in
            let code = rd_kafka_flush(client.handle, milliseconds)
            afterReports?()
            if code != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError(
                    code, message: "\(rd_kafka_outq_len(client.handle)) records still unacknowledged after flush")
            }
        }
    }

    /// Flushes (up to `flushTimeout`), fails what is still outstanding, stops the poll thread and
    /// destroys the librdkafka handle. Calling it again does nothing.
    public func shutdown(flushTimeout: Duration = .seconds(30)) async {
        guard closed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
        else { return }
        // A call that passed the check of `closed` before it was set finishes handing its record over.
        await waitUntilNoneProducing()
        do {
            try await flush(timeout: flushTimeout)
        } catch {
            client.callbacks.logger.error("producer shutdown: \(error)")
        }
        let client = self.client
        let afterReports = self.afterReports
        let topicHandles = self.topicHandles
        let signalled = self.signalled.withLock { signalled in
            defer { signalled = nil }
            return signalled
        }
        await pollThread.stop {
            if let signalled {
                signalled.signal.unwatch(signalled.queue.raw)
                rd_kafka_queue_destroy(signalled.queue.raw)
            }
            // Purged records get their delivery handler called (with _PURGE_QUEUE) by the flush below.
            _ = rd_kafka_purge(client.handle, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT)
            _ = rd_kafka_flush(client.handle, 1000)
            afterReports?()
            topicHandles.destroyAll()
            client.destroy()
        }
    }
}
