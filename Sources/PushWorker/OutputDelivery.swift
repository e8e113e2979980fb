import Kafka
import Logging
import PushModel
import PushTranslation

/// What the deliveries of every input share, for the worker's whole run: where finished inputs are
/// gathered, and what it takes to write a replacement when the broker refuses a record.
final class DeliveryContext: Sendable {
    let ledger: DeliveryLedger
    let producer: KafkaProducer
    let translator: Translator
    let logger: Logger

    init(ledger: DeliveryLedger, producer: KafkaProducer, translator: Translator, logger: Logger) {
        self.ledger = ledger
        self.producer = producer
        self.translator = translator
        self.logger = logger
    }
}

/// The delivery of one input's records: the receiver of each of their reports. The input is finished
/// when the last is acknowledged; the ledger then settles it with the others of the same poll.
///
/// `@unchecked Sendable` is safe because `remaining` and `tally` are only changed by delivery reports,
/// which all run on the producer's one poll thread.
final class InputDelivery: KafkaDeliveryReceiver, @unchecked Sendable {
    /// The input as it was translated, to translate a replacement from. The input alone, not the read
    /// batch it came in: a record whose outputs wait (a broker down) must not keep the other records of
    /// its batch in memory.
    private let input: InputRecord
    private let ticket: OffsetTracker.Ticket
    private let context: DeliveryContext
    private var remaining: Int
    private var tally: ProducedTally

    /// The delivery of `outputs` (all handed over with this receiver) of `input`.
    init(input: InputRecord, ticket: OffsetTracker.Ticket, outputs: Int, tally: ProducedTally, context: DeliveryContext) {
        self.input = input
        self.ticket = ticket
        self.context = context
        self.remaining = outputs
        self.tally = tally
    }

    override func received(_ delivery: KafkaDelivery) {
        guard let error = delivery.error else {
            remaining -= 1
            if remaining == 0 { context.ledger.finished(ticket, tally: tally, inputTimestampMs: input.timestampMs) }
            return
        }
        guard error.isRecordTooLarge, let refused = OutputRecord(refused: delivery),
            let replacement = replacement(for: refused, error: error)
        else {
            context.ledger.fail(DeliveryFailure(source: ticket, topic: delivery.topic, error: error))
            return
        }
        // Named by topic, partition and offset only: the record's text never reaches a log.
        context.logger.warning(
            "record refused as too large; writing a replacement",
            metadata: [
                "source": "\(ticket.partition)@\(ticket.offset)", "topic": "\(refused.topic)",
                "error": "\(error.codeName)", "replacement": "\(replacement.topic)",
            ])
        tally.replace(refused.format, by: replacement.format)
        write(replacement)
    }

    /// The record that stands in for `refused`: an output's emit-stage dead letter
    /// (`payload_too_large`), a dead letter's copy without its value (`pushgate-value-omitted`); `nil`
    /// when there is none (a dead letter already without value).
    private func replacement(for refused: OutputRecord, error: KafkaError) -> OutputRecord? {
        if refused.isDeadLetter { return refused.value.isEmpty ? nil : refused.withoutValue() }
        return context.translator.deadLetter(replacing: refused, of: input, reason: error.codeName)
    }

    /// Writes from a task: this runs on the producer's poll thread, which must not wait for room.
    private func write(_ record: OutputRecord) {
        let context = self.context
        Task {
            do {
                try await context.producer.produceWhenQueued(record, to: self)
            } catch {
                context.ledger.fail(error)
            }
        }
    }
}

/// The records of one input, by format, as ``WorkerMetrics`` counts them once they are acknowledged.
struct ProducedTally: Sendable {
    var formats = OutputFormatSet()
    var deadLetters = 0

    /// The tally of `records`.
    init(_ records: [OutputRecord]) {
        for record in records {
            if let format = record.format { formats.insert(format) } else { deadLetters += 1 }
        }
    }

    /// One record of `format` (`nil`: a dead letter) replaced by one of `replacement`.
    mutating func replace(_ format: OutputFormat?, by replacement: OutputFormat?) {
        if let format { formats.remove(format) } else { deadLetters -= 1 }
        if let replacement { formats.insert(replacement) } else { deadLetters += 1 }
    }
}

extension OutputRecord: KafkaProducible {
    /// Outputs are placed by the partitioner, from their key.
    public var partition: Int32? { nil }
    /// Outputs get the producer's current time.
    public var timestampMs: Int64? { nil }
    /// How many headers the record has.
    public var headerCount: Int { headers.count }

    /// Calls `body` with each header's name and value bytes, in order.
    public func forEachHeader(_ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) -> Void) {
        headers.withUnsafeBufferPointer { headers in
            for index in headers.indices { KafkaHeaderBytes.with(name: headers[index].name, value: headers[index].value, body) }
        }
    }

    /// The record a delivery report was about, read back from librdkafka: its topic, key, value and
    /// headers, its format from `pushgate-format` (a dead letter carries `pushgate-errors`). `nil` when
    /// the headers name no format pushgate knows.
    init?(refused delivery: KafkaDelivery) {
        let record = delivery.record()
        let headers = record.headers.map { RecordHeader(name: $0.name, bytes: $0.value) }
        let isDeadLetter = headers.contains { $0.name == "pushgate-errors" }
        let formatName = headers.first { $0.name == "pushgate-format" }?.value.map { String(decoding: $0, as: UTF8.self) }
        let format = formatName.flatMap(OutputFormat.init(rawValue:))
        if !isDeadLetter && format == nil { return nil }
        self.init(
            topic: record.topic, format: isDeadLetter ? nil : format, key: record.key, value: record.value,
            headers: headers)
    }
}
