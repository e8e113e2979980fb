import Kafka
import Logging
import PushModel
import PushTranslation

/// What the delivery of one input's records needs: its slot, its ticket, the count of its records still
/// unacknowledged, and what it takes to write a replacement when the broker refuses a record.
struct OutputDelivery: Sendable {
    let input: KafkaConsumerMessage
    let ticket: OffsetTracker.Ticket
    /// Counted down only on the producer's poll thread, where delivery reports run.
    let progress: RecordProgress
    let tracker: OffsetTracker
    let limiter: InFlightLimiter
    let producer: KafkaProducer
    let translator: Translator
    let metrics: WorkerMetrics
    let logger: Logger

    /// The delivery report handler of `record`. A record the broker refuses as too large is replaced
    /// (issue: a limit below the producer's would otherwise stop the worker on every restart): an output
    /// by its emit-stage dead letter (`payload_too_large`), a dead letter by itself without its value
    /// (`pushgate-value-omitted`). Any other failure, or a replacement refused too, stops the worker.
    func handler(for record: OutputRecord) -> KafkaProducer.DeliveryHandler {
        { result in
            switch result {
            case .success:
                tracker.acknowledge(ticket)
                metrics.recordProduced(format: record.format)
                if progress.finishOne() {
                    metrics.recordAcknowledged(inputTimestampMs: input.timestampMs)
                    limiter.release()
                }
            case .failure(let error):
                guard error.isRecordTooLarge, let replacement = replacement(for: record, error: error) else {
                    limiter.fail(DeliveryFailure(source: ticket, topic: record.topic, error: error))
                    return
                }
                // Named by topic, partition and offset only: the record's text never reaches a log.
                logger.warning(
                    "record refused as too large; writing a replacement",
                    metadata: [
                        "source": "\(ticket.partition)@\(ticket.offset)", "topic": "\(record.topic)",
                        "error": "\(error.codeName)", "replacement": "\(replacement.topic)",
                    ])
                write(replacement)
            }
        }
    }

    private func replacement(for record: OutputRecord, error: KafkaError) -> OutputRecord? {
        if record.isDeadLetter { return record.value.isEmpty ? nil : record.withoutValue() }
        return translator.deadLetter(replacing: record, of: InputRecord(input), reason: error.codeName)
    }

    /// Writes from a task: the handler runs on the producer's poll thread, which must not wait for room.
    private func write(_ record: OutputRecord) {
        let onDelivery = handler(for: record)
        let producer = self.producer
        let limiter = self.limiter
        Task {
            do {
                try await producer.produceWhenQueued(KafkaProducerMessage(record), onDelivery: onDelivery)
            } catch {
                limiter.fail(error)
            }
        }
    }
}
