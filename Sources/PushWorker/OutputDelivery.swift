import Logging
import PushModel
import PushTranslation
import PushgateKafka
import Synchronization

/// What the deliveries of every input share, for the worker's whole run: where finished inputs are
/// gathered, and what it takes to write a replacement when the broker refuses a record.
final class DeliveryContext: Sendable {
    let ledger: DeliveryLedger
    let producer: KafkaProducer
    let translator: Translator
    let logger: Logger
    /// ``PushWorkerConfiguration/producerRecordLimit``: a replacement over it is written without its value.
    let recordLimit: Int

    init(ledger: DeliveryLedger, producer: KafkaProducer, translator: Translator, logger: Logger, recordLimit: Int) {
        self.ledger = ledger
        self.producer = producer
        self.translator = translator
        self.logger = logger
        self.recordLimit = recordLimit
    }
}

/// The delivery of one input's records: the receiver of each of their reports. The input is finished
/// when the last is acknowledged; the ledger then settles it with the others of the same poll.
///
/// `@unchecked Sendable` because Swift does not check `Sendable` on a subclass, but it holds: every
/// stored property is a `let` of a `Sendable` type, set in `init` on the pipeline thread before the
/// first record is handed over with this receiver (librdkafka's queue lock orders it before every
/// report; see ``KafkaDeliveryReceiver``). What changes afterwards is atomic (`remaining`, `refusals`, `abandoned`)
/// or behind a `Mutex` (the tally, changed only when a record is replaced), because reports arrive on
/// the thread that serves them while tasks this receiver starts (a replacement, a retry) run elsewhere.
final class InputDelivery: KafkaDeliveryReceiver, @unchecked Sendable {
    /// The input as it was translated, to translate a replacement from. The input alone, not the read
    /// batch it came in: a record whose outputs wait (a broker down) must not keep the other records of
    /// its batch in memory.
    private let input: InputRecord
    private let ticket: OffsetTracker.Ticket
    /// Not retained: ``PushWorker`` keeps the context until its producer has reported every record (and
    /// the tasks below capture it strongly), and a context retained and released by every input would
    /// cost two atomic operations per input.
    private let unretainedContext: UnsafeUnretainedReference<DeliveryContext>
    private var context: DeliveryContext { unretainedContext.object }
    /// Records not acknowledged yet.
    private let remaining: Atomic<Int>
    private let tally: Mutex<ProducedTally>
    /// How often a record with nothing smaller to stand in for it was refused.
    private let refusals = Atomic<Int>(0)
    /// Whether the input was given up (its partition revoked or lost): set once, from any thread.
    private let abandoned = Atomic<Bool>(false)

    /// The delivery of `outputs` (all handed over with this receiver) of `input`.
    init(input: InputRecord, ticket: OffsetTracker.Ticket, outputs: Int, tally: ProducedTally, context: DeliveryContext)
    {
        self.input = input
        self.ticket = ticket
        self.unretainedContext = UnsafeUnretainedReference(context)
        self.remaining = Atomic(outputs)
        self.tally = Mutex(tally)
    }

    override func received(_ delivery: KafkaDelivery) {
        guard let error = delivery.error else {
            if remaining.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                let tally = tally.withLock { $0 }
                unretainedContext.withObject {
                    $0.ledger.finished(ticket, tally: tally, inputTimestampMs: input.timestampMs)
                }
            }
            return
        }
        // A partition revoked or lost since its record was read is its new owner's to redo: the input is
        // not committed, and is read and translated again there. Nothing of it needs writing here.
        guard context.ledger.isCurrent(ticket) else {
            abandon(reason: error.codeName)
            return
        }
        guard error.isRecordTooLarge, let refused = OutputRecord(refused: delivery) else {
            context.ledger.fail(DeliveryFailure(source: ticket, topic: delivery.topic, error: error))
            return
        }
        guard let replacement = replacement(for: refused, error: error) else {
            retry(refused, error: error)
            return
        }
        // Named by topic, partition and offset only: the record's text never reaches a log.
        context.logger.warning(
            "record refused as too large; writing a replacement",
            metadata: [
                "source": "\(ticket.partition)@\(ticket.offset)", "topic": "\(refused.topic)",
                "error": "\(error.codeName)", "replacement": "\(replacement.topic)",
            ])
        tally.withLock { $0.replace(refused.format, by: replacement.format) }
        write(replacement)
    }

    /// The record that stands in for `refused`: an output's emit-stage dead letter
    /// (`payload_too_large`), a dead letter's copy without its value (`pushgate-value-omitted`); `nil`
    /// when there is none (a dead letter already without value).
    private func replacement(for refused: OutputRecord, error: KafkaError) -> OutputRecord? {
        if refused.isDeadLetter { return refused.value.isEmpty ? nil : refused.withoutValue() }
        return context.translator.deadLetter(replacing: refused, of: input, reason: error.codeName)
    }

    /// Writes from a task: this runs on the thread that serves the reports, which must not wait for room.
    /// A replacement over the record size limit is written without its value, as any dead letter is.
    private func write(_ record: OutputRecord) {
        let context = self.context
        let ticket = self.ticket
        let record = record.fitting(recordLimit: context.recordLimit)
        Task {
            do {
                try await context.producer.produceWhenQueued(record, to: self)
            } catch {
                failOrAbandon(error, ticket: ticket)
            }
        }
    }

    /// A record that could not be handed over from a task: the worker stops, unless the record's partition
    /// is no longer assigned (its new owner reads the input again).
    private func failOrAbandon(_ error: any Error, ticket: OffsetTracker.Ticket) {
        guard context.ledger.isCurrent(ticket) else {
            abandon(reason: (error as? KafkaError)?.codeName ?? "\(error)")
            return
        }
        context.ledger.fail(error)
    }

    /// A refused record with nothing smaller to stand in for it (a dead letter already without its
    /// value): written again after a pause that doubles with each refusal, up to
    /// ``InputDelivery/longestRetryPause``, for as long as its partition stays assigned. A broker that
    /// refuses it only for a while (a fault, a limit being raised) takes it in the end; one that keeps
    /// refusing holds the partition's progress back (its inputs stay uncommitted, the warning repeats)
    /// but does not stop the worker, which goes on with its other partitions.
    private func retry(_ refused: OutputRecord, error: KafkaError) {
        let refusals = self.refusals.wrappingAdd(1, ordering: .relaxed).newValue
        let pause = Self.retryPause(afterRefusals: refusals)
        if refusals == 1 || refusals.isMultiple(of: 10) {
            context.logger.warning(
                "record refused as too large with nothing smaller to write instead; writing it again",
                metadata: [
                    "source": "\(ticket.partition)@\(ticket.offset)", "topic": "\(refused.topic)",
                    "error": "\(error.codeName)", "refusals": "\(refusals)", "pause": "\(pause)",
                ])
        }
        let context = self.context
        let ticket = self.ticket
        Task {
            do {
                // A back-off: nothing signals that the broker would take the record now.
                try await Task.sleep(for: pause)
                guard context.ledger.isCurrent(ticket) else {
                    self.abandon(reason: error.codeName)
                    return
                }
                try await context.producer.produceWhenQueued(refused, to: self)
            } catch {
                self.failOrAbandon(error, ticket: ticket)
            }
        }
    }

    /// The longest pause between two writes of a record refused again and again.
    static let longestRetryPause = Duration.seconds(5)

    /// The pause before writing a record again after its `refusals`-th refusal: 100 ms, doubling.
    static func retryPause(afterRefusals refusals: Int) -> Duration {
        min(.milliseconds(100 << min(max(refusals - 1, 0), 10)), longestRetryPause)
    }

    /// Gives up the input of a partition this worker no longer owns (any thread): its slot is freed
    /// once, however many of its records fail; nothing of it is counted or committed.
    private func abandon(reason: String) {
        guard !abandoned.exchange(true, ordering: .relaxed) else { return }
        context.logger.info(
            "a record of a partition no longer assigned was not written; its new owner reads the input again",
            metadata: ["source": "\(ticket.partition)@\(ticket.offset)", "error": "\(reason)"])
        context.ledger.abandoned(ticket)
    }
}

/// The records of one input, by format, as ``WorkerMetrics`` counts them once they are acknowledged.
struct ProducedTally: Sendable {
    var formats = OutputFormatSet()
    var deadLetters = 0

    /// The tally of `records`.
    init(_ records: [OutputRecord]) {
        // Read in place: iterating the array would copy each record (retaining all it holds).
        records.withUnsafeBufferPointer { records in
            for index in records.indices {
                if let format = records[index].format { formats.insert(format) } else { deadLetters += 1 }
            }
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
    // `headerCount`, `forEachHeader(_:)` and `withKeyAndValue(_:)` are OutputRecord's own: they read an
    // output's headers without making a list of them, and its key and value in place.

    /// The record a delivery report was about, read back from librdkafka: its topic, key, value and
    /// headers, its format from `pushgate-format` (a dead letter carries `pushgate-errors`). `nil` when
    /// the headers name no format pushgate knows.
    init?(refused delivery: KafkaDelivery) {
        let record = delivery.record()
        let headers = record.headers.map { RecordHeader(name: $0.name, bytes: $0.value) }
        let isDeadLetter = headers.contains { $0.name == "pushgate-errors" }
        let formatName = headers.first { $0.name == "pushgate-format" }?.value.map {
            String(decoding: $0, as: UTF8.self)
        }
        let format = formatName.flatMap(OutputFormat.init(rawValue:))
        if !isDeadLetter && format == nil { return nil }
        self.init(
            topic: record.topic, format: isDeadLetter ? nil : format, key: record.key, value: record.value,
            headers: headers)
        valueIsNull = record.valueIsNull
    }
}
