import Foundation
import Logging
import PushgateKafka
import Synchronization

/// Writes dead letters back into the input topic: the letter's key, its value or a fixed one, its
/// headers without `pushgate-*` and `__connect.errors.*` (as `pushgate replay` writes them), and
/// `pushgate-redriven-from: TOPIC:PARTITION:OFFSET` naming the letter.
///
/// Idempotent within the console: a letter re-driven once with a value is not written again with the
/// same value (the first record is answered instead), so a repeated request, or a second click, writes
/// nothing twice. A new fix of the same letter is a new record.
public final class Redriver: Sendable {
    /// One letter to re-drive.
    public struct Request: Sendable, Equatable {
        /// The dead-letter partition.
        public var partition: Int32
        /// The dead-letter offset.
        public var offset: Int64
        /// The value to write; `nil`: the letter's value, unchanged.
        public var payload: [UInt8]?

        /// Creates a request.
        public init(partition: Int32, offset: Int64, payload: [UInt8]? = nil) {
            self.partition = partition
            self.offset = offset
            self.payload = payload
        }
    }

    /// The record a letter became in the input topic.
    public struct Written: Sendable, Equatable {
        /// The letter's partition.
        public var letterPartition: Int32
        /// The letter's offset.
        public var letterOffset: Int64
        /// The input partition written to.
        public var partition: Int32
        /// The input offset written at.
        public var offset: Int64
        /// Whether this request wrote it (`false`: an earlier request with the same value did).
        public var isNew: Bool
        /// The input record as `pushgate-source` names it: `TOPIC:PARTITION:OFFSET`.
        public var source: String
        /// Whether the value is the letter's own (not a fix).
        public var unchanged: Bool
    }

    private struct LedgerKey: Hashable {
        var partition: Int32
        var offset: Int64
        var payload: [UInt8]?
    }

    private enum LedgerEntry {
        case writing
        case written(partition: Int32, offset: Int64)
    }

    private let producer: Mutex<KafkaProducer>
    private let producerConfiguration: KafkaProducerConfiguration
    private let letters: LetterReader
    private let inputTopic: String
    private let deadLetterTopic: String
    private let index: DeadLetterIndex
    private let followThrough: FollowThrough
    private let ledger = Mutex<[LedgerKey: LedgerEntry]>([:])
    /// Notified when a ledger entry stops being `.writing` (written, or given up after a failure).
    private let ledgerChanged = ChangeSignal()
    private let history = Mutex<[Written]>([])
    private let beforeWriting: @Sendable () async -> Void
    private let logger: Logger

    /// Creates a re-driver with its own idempotent producer.
    /// - Parameter beforeWriting: awaited before each write (the console waits until it reads the
    ///   output topics, so that it sees what the re-driven records become).
    public init(
        producer: KafkaProducerConfiguration, letters: LetterReader, inputTopic: String,
        deadLetterTopic: String, index: DeadLetterIndex, followThrough: FollowThrough,
        beforeWriting: @escaping @Sendable () async -> Void = {}, logger: Logger
    ) throws(KafkaError) {
        self.beforeWriting = beforeWriting
        self.producer = Mutex(try KafkaProducer(configuration: producer, logger: logger))
        self.producerConfiguration = producer
        self.letters = letters
        self.inputTopic = inputTopic
        self.deadLetterTopic = deadLetterTopic
        self.index = index
        self.followThrough = followThrough
        self.logger = logger
    }

    /// Every record written so far, oldest first.
    public var written: [Written] { history.withLock { $0 } }

    /// Writes what `requests` ask for, in their order, and waits for every acknowledgement.
    /// - Returns: one ``Written`` per request, in the same order.
    /// - Throws: ``RedriveError`` for a letter the console has not read, or a failed write (nothing
    ///   of that request is then counted as written, and the same request may be made again).
    public func redrive(_ requests: [Request]) async throws(RedriveError) -> [Written] {
        for request in requests where index.letter(partition: request.partition, offset: request.offset) == nil {
            throw RedriveError(
                status: 404,
                message:
                    "no dead letter at partition \(request.partition) offset \(request.offset) of \(deadLetterTopic)"
            )
        }
        // The whole letters, read back (the index keeps no values or headers).
        let places = requests.map { LetterReader.Place(partition: $0.partition, offset: $0.offset) }
        let read = await self.letters.read(places)
        var letters: [DeadLetter] = []
        for place in places {
            guard let record = read[place] else {
                throw RedriveError(
                    status: 502,
                    message:
                        "cannot read the dead letter at partition \(place.partition) offset \(place.offset) again")
            }
            letters.append(DeadLetter(record))
        }
        // Claim each (letter, value) not yet written; wait for those another request is writing.
        var claimed: [Int] = []
        let keys = zip(requests, letters).map { request, letter in
            LedgerKey(
                partition: request.partition, offset: request.offset,
                payload: request.payload.flatMap { $0 == letter.value ? nil : $0 })
        }
        ledger.withLock { ledger in
            for (position, key) in keys.enumerated() where ledger[key] == nil {
                ledger[key] = .writing
                claimed.append(position)
            }
        }
        do {
            try await write(claimed.map { (keys[$0], letters[$0]) })
        } catch {
            // What was written stays remembered; the rest may be asked for again.
            ledger.withLock { ledger in
                for position in claimed {
                    if case .writing = ledger[keys[position]] { ledger[keys[position]] = nil }
                }
            }
            ledgerChanged.notify()
            throw error
        }
        let mine = Set(claimed)
        var results: [Written] = []
        for (position, key) in keys.enumerated() {
            let (partition, offset) = try await waitForWrite(key)
            results.append(
                Written(
                    letterPartition: key.partition, letterOffset: key.offset, partition: partition, offset: offset,
                    isNew: mine.contains(position), source: "\(inputTopic):\(partition):\(offset)",
                    unchanged: key.payload == nil))
        }
        if !requests.isEmpty {
            logger.info(
                "console: re-drove \(mine.count) dead letter(s), \(results.count - mine.count) already re-driven")
        }
        return results
    }

    /// Produces the claimed letters and records where each went.
    private func write(_ claims: [(LedgerKey, DeadLetter)]) async throws(RedriveError) {
        guard !claims.isEmpty else { return }
        await beforeWriting()
        var messages: [KafkaProducerMessage] = []
        for (key, letter) in claims {
            messages.append(
                KafkaProducerMessage(
                    topic: inputTopic, key: letter.key, value: key.payload ?? letter.value,
                    headers: Self.forwarded(letter.headers)
                        + [
                            KafkaHeader(
                                name: "pushgate-redriven-from",
                                value: Array("\(deadLetterTopic):\(letter.partition):\(letter.offset)".utf8))
                        ],
                    // A tombstone's letter re-driven unchanged is a tombstone again.
                    valueIsNull: key.payload == nil && letter.valueIsNull))
        }
        let reports = await deliver(messages)
        var failure: String?
        for ((key, _), report) in zip(claims, reports) {
            switch report {
            case .success(let report):
                guard let offset = report.offset else {
                    failure = failure ?? "an acknowledgement without an offset"
                    continue
                }
                let source = "\(inputTopic):\(report.partition):\(offset)"
                followThrough.watch(source)
                ledger.withLock { $0[key] = .written(partition: report.partition, offset: offset) }
                ledgerChanged.notify()
                history.withLock {
                    $0.append(
                        Written(
                            letterPartition: key.partition, letterOffset: key.offset, partition: report.partition,
                            offset: offset, isNew: true, source: source, unchanged: key.payload == nil))
                }
            case .failure(let error):
                failure = failure ?? "\(error)"
            }
        }
        if let failure {
            throw RedriveError(status: 502, message: "writing to \(inputTopic) failed: \(failure)")
        }
    }

    /// Hands every message to the producer in order and waits for all their delivery reports.
    private func deliver(_ messages: [KafkaProducerMessage]) async -> [Result<KafkaDeliveryReport, KafkaError>] {
        await withCheckedContinuation { continuation in
            let collector = DeliveryCollector(count: messages.count, continuation: continuation)
            for (position, message) in messages.enumerated() {
                // A record the producer refused to take was not written: once, with a new producer when
                // the refusal was the producer's fatal error.
                var lastError: KafkaError?
                for _ in 0..<2 {
                    do throws(KafkaError) {
                        try liveProducer().produce(message) { collector.deliver(position, $0) }
                        lastError = nil
                        break
                    } catch {
                        lastError = error
                        if producer.withLock({ $0 }).fatalError == nil { break }
                    }
                }
                if let lastError { collector.deliver(position, .failure(lastError)) }
            }
        }
    }

    /// Waits until `key` is written (by this request or a concurrent one) and returns where.
    private func waitForWrite(_ key: LedgerKey) async throws(RedriveError) -> (Int32, Int64) {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, !Task.isCancelled {
            let generation = ledgerChanged.generation
            switch ledger.withLock({ $0[key] }) {
            case .written(let partition, let offset): return (partition, offset)
            case .writing: await ledgerChanged.wait(after: generation, atMost: deadline - .now)
            case nil:
                throw RedriveError(status: 502, message: "a concurrent re-drive of the same letter failed; try again")
            }
        }
        throw RedriveError(status: 504, message: "a concurrent re-drive of the same letter did not finish in 30 s")
    }

    /// The headers a re-driven record keeps: all but `pushgate-*` and `__connect.errors.*`.
    static func forwarded(_ headers: [KafkaHeader]) -> [KafkaHeader] {
        headers.filter { header in
            let name = header.name.lowercased()
            return !name.hasPrefix("pushgate-") && !name.hasPrefix("__connect.errors.")
        }
    }

    /// The producer, made anew when the last one had a fatal error (an idempotent producer that meets a
    /// permanent error, such as a topic authorization failure, can write nothing more): the error was
    /// answered to the request that met it, and the next request gets a producer that works.
    private func liveProducer() throws(KafkaError) -> KafkaProducer {
        // Checked and replaced under the lock: two requests meeting the error replace it once.
        let (live, replaced) = try producer.withLock { producer throws(KafkaError) -> (KafkaProducer, KafkaProducer?) in
            guard producer.fatalError != nil else { return (producer, nil) }
            let old = producer
            producer = try KafkaProducer(configuration: producerConfiguration, logger: logger)
            return (producer, old)
        }
        if let replaced {
            logger.warning("console: the re-driver's producer had a fatal error; a new one writes from now on")
            Task { await replaced.shutdown(flushTimeout: .seconds(1)) }
        }
        return live
    }

    /// Delivers what was handed over and stops the producer.
    public func shutdown() async { await producer.withLock { $0 }.shutdown() }
}

/// A re-drive that could not be done, with the HTTP status it is answered with.
public struct RedriveError: Error, CustomStringConvertible {
    /// 400, 404, 502 or 504.
    public var status: Int
    /// What went wrong.
    public var message: String
    /// The message.
    public var description: String { message }
}

/// Gathers the delivery reports of a set of records and resumes once all are in.
private final class DeliveryCollector: Sendable {
    private let state: Mutex<(results: [Result<KafkaDeliveryReport, KafkaError>?], remaining: Int)>
    private let continuation: CheckedContinuation<[Result<KafkaDeliveryReport, KafkaError>], Never>

    init(count: Int, continuation: CheckedContinuation<[Result<KafkaDeliveryReport, KafkaError>], Never>) {
        state = Mutex((Array(repeating: nil, count: count), count))
        self.continuation = continuation
        if count == 0 { continuation.resume(returning: []) }
    }

    func deliver(_ position: Int, _ result: Result<KafkaDeliveryReport, KafkaError>) {
        let done = state.withLock { state -> [Result<KafkaDeliveryReport, KafkaError>]? in
            guard state.results[position] == nil else { return nil }
            state.results[position] = result
            state.remaining -= 1
            return state.remaining == 0 ? state.results.map { $0! } : nil
        }
        if let done { continuation.resume(returning: done) }
    }
}
