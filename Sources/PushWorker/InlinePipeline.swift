import Foundation
import Logging
import PushModel
import PushTranslation
import PushgateKafka
import PushgateTracing

/// The worker's pipeline on the consumer's poll thread: each record, as it is polled, is registered
/// with the tracker, translated, and its outputs handed to the producer, whose delivery reports the
/// same thread serves between polls. One thread, no hand-over: librdkafka's own threads do the rest.
///
/// Records of a partition are handled in read order, so records with the same key keep their order in
/// every output topic.
final class InlinePipeline: Sendable {
    private let worker: PushWorker
    private let translator: Translator
    private let deliveries: DeliveryContext
    private let tracker: OffsetTracker
    private let limiter: InFlightLimiter
    /// The spans of SPEC section 11; `nil` when tracing is off (the only cost then: this one test per record).
    private let tracing: PipelineTracing?
    /// What one batch of polled records leaves for ``afterRecords()``.
    ///
    /// `nonisolated(unsafe)` because a `Sendable` class has no mutable property Swift can check; it is
    /// safe because one thread alone touches it. Its only readers and writers are
    /// ``handle(_:assignmentEpoch:)`` and ``afterRecords()``, which only `KafkaConsumer.pollInline`
    /// calls, on the consumer's poll thread, one after the other (neither calls the other, and the
    /// delivery reports `handle` serves while librdkafka's queue is full do not reach them). Its first
    /// value, written in `init`, happens before the poll thread's first access: the pipeline is made
    /// before the consumer, and the consumer starts its poll thread after that (a thread's start orders
    /// what its starter did before it). A `Mutex` here cost two atomic operations per record.
    nonisolated(unsafe) private var batch = BatchTally()

    private struct BatchTally {
        var consumed = 0
        var durations: [Int64] = []
        /// When the batch's first record was read, in milliseconds since the epoch.
        var readAtMs: Int64 = 0
    }

    init(
        worker: PushWorker, translator: Translator, deliveries: DeliveryContext, tracker: OffsetTracker,
        limiter: InFlightLimiter, tracing: PipelineTracing? = nil
    ) {
        self.worker = worker
        self.translator = translator
        self.deliveries = deliveries
        self.tracker = tracker
        self.limiter = limiter
        self.tracing = tracing
    }

    /// The consumer's hand-over: records in place, delivery reports served between them.
    func reading(signal: KafkaEventSignal) -> KafkaInlineReading {
        let limiter = self.limiter
        let producer = deliveries.producer
        return KafkaInlineReading(
            signal: signal, hasRoom: { limiter.hasRoom && !limiter.hasFailed },
            serve: { producer.serveReports(waitingUpToMs: $0) },
            handle: { [self] record, epoch in handle(record, assignmentEpoch: epoch) },
            afterRecords: { [self] in afterRecords() })
    }

    /// One polled record: registered, translated, its outputs handed over. A record of a partition no
    /// longer assigned under `assignmentEpoch` is skipped (its new owner reads it again).
    private func handle(_ record: KafkaRecordView, assignmentEpoch: UInt64) {
        // After a delivery failure the worker stops: no later record of a key may be written before the
        // failed one is written again.
        guard !limiter.hasFailed else { return }
        limiter.take()
        if batch.consumed == 0 { batch.readAtMs = Int64(Date().timeIntervalSince1970 * 1000) }
        batch.consumed += 1
        let readAtMs = batch.readAtMs
        let partition = KafkaTopicPartition(topic: record.topic, partition: record.partition)
        guard let ticket = tracker.begin(partition, offset: record.offset, epoch: assignmentEpoch, outputs: 1) else {
            limiter.release()
            return
        }
        guard let tracing else {
            translateAndHandOver(InputRecord(record), ticket: ticket, readAtMs: readAtMs, tracing: nil, span: nil)
            return
        }
        // Tracing on: the same steps with the input's trace current on this thread (for the log lines' `trace_id`
        // and `span_id`) until its records are handed over. Its list has room for pushgate's `traceparent` when it
        // has none; where its trace headers are is noted as the list is made. A sampled input's span is kept for
        // this thread, which finishes and ends it.
        var places = TraceHeaderPlaces()
        var input = InputRecord(record, reservingHeaders: 1, notingTraceHeaders: &places)
        var span: RecordSpan?
        let trace = tracing.begin(&input, places: places, span: &span)
        // The input is moved into the hand-over, not copied (a copy is a retain and a release of each reference it
        // holds); the thread's cell keeps only the trace's `traceparent`.
        let current = ThreadRecordTrace.here
        current?.set(trace)
        translateAndHandOver(consume input, ticket: ticket, readAtMs: readAtMs, tracing: tracing, span: span)
        current?.clear()
        if let span { tracing.end(span) }
    }

    /// Translates `input` (timed for the histogram), reports it, writes what it became on its span when sampled,
    /// and hands its records to the producer. The hand-over is the translation's last use: its records array is
    /// then the only reference, and is handed over where it lies, not copied.
    private func translateAndHandOver(
        _ input: consuming InputRecord, ticket: OffsetTracker.Ticket, readAtMs: Int64, tracing: PipelineTracing?,
        span: RecordSpan?
    ) {
        let started = Self.monotonicNanoseconds()
        let translation = translator.translation(of: input, readAtMs: readAtMs)
        let duration = Self.monotonicNanoseconds() &- started
        batch.durations.append(duration)
        worker.report(translation)
        if let tracing, let span { tracing.record(translation, on: span) }
        produce(input, translation, ticket: ticket)
    }

    /// The monotonic clock in nanoseconds, read straight from `clock_gettime` (`DispatchTime.now()` goes
    /// through libdispatch's conversions): the translation-time histogram reads it twice per record.
    private static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)
    }

    /// Counts the batch's records and translation times.
    private func afterRecords() {
        worker.metrics.recordConsumed(batch.consumed)
        worker.metrics.recordTranslations(nanoseconds: batch.durations)
        batch.consumed = 0
        batch.durations.removeAll(keepingCapacity: true)
    }

    /// Hands over the records of one translated input, registered as `ticket`; while librdkafka's queue
    /// is full, serves delivery reports to make room. A record that cannot be handed over stops the
    /// pipeline (``InFlightLimiter/fail(_:)``).
    private func produce(
        _ input: consuming InputRecord, _ translation: consuming Translation, ticket: OffsetTracker.Ticket
    ) {
        // Taken out of the translation, so that this is the array's only reference and the records are
        // handed over where they lie (see ``KafkaProducer/produceIfRoom(inPlace:to:)``).
        var records = translation.takeRecords()
        if records.isEmpty {
            tracker.finish([ticket])
            limiter.release()
            return
        }
        let producer = deliveries.producer
        let delivery = InputDelivery(
            input: input, ticket: ticket, outputs: records.count, tally: ProducedTally(records), context: deliveries)
        let recordLimit = deliveries.recordLimit
        records.withUnsafeMutableBufferPointer { outputs in
            for index in outputs.indices {
                do {
                    if outputs[index].exceeds(recordLimit: recordLimit) {
                        try produceWithoutValue(outputs[index], to: delivery, source: ticket)
                    } else {
                        while try !producer.produceIfRoom(inPlace: &outputs[index], to: delivery) {
                            producer.serveReports(waitingUpToMs: 10)
                        }
                    }
                } catch {
                    limiter.fail(error)
                    return
                }
            }
        }
    }

    /// Hands over a dead letter over the record size limit without its value (`pushgate-value-omitted`).
    private func produceWithoutValue(
        _ output: OutputRecord, to delivery: InputDelivery, source ticket: OffsetTracker.Ticket
    ) throws(KafkaError) {
        worker.logger.warning(
            "dead letter value omitted: over the record size limit",
            metadata: ["source": "\(ticket.partition)@\(ticket.offset)", "bytes": "\(output.valueCount)"])
        let output = output.withoutValue()
        while try !deliveries.producer.produceIfRoom(output, to: delivery) {
            deliveries.producer.serveReports(waitingUpToMs: 10)
        }
    }
}
