import Logging
import PushgateKafka
import Synchronization

/// Reads whole dead letters back from Kafka by their place, for what the console shows and re-drives:
/// one long-lived reader (no group, no commits; making a reader per request costs hundreds of ms), and a
/// bounded cache of the letters read most recently.
///
/// A read assigns each partition asked for at its first offset asked for, takes the records asked for as
/// the reader passes them (in place, on its poll thread), and assigns again where the next offset asked
/// for is far ahead. Reads are one at a time.
public final class LetterReader: Sendable {
    /// A letter's place.
    struct Place: Hashable, Sendable {
        var partition: Int32
        var offset: Int64
    }

    /// How many records past the last taken a partition is read before it is assigned again.
    static let readAhead: Int64 = 500
    /// The cache's bounds: letters, and bytes of their values.
    static let cacheLetters = 2_000
    static let cacheBytes = 32 << 20

    private let topic: String
    private let configuration: KafkaConsumerConfiguration
    private let logger: Logger
    private let wanted = Mutex(Wanted())
    /// Notified when the reader finds a wanted letter.
    private let found = ChangeSignal()
    private let reader = Mutex<KafkaConsumer?>(nil)
    private let cache = Mutex(Cache())
    private let turn = AsyncLock()

    private struct Wanted {
        var places: Set<Place> = []
        var found: [Place: KafkaConsumerMessage] = [:]
        /// The highest offset read per partition since the last assignment.
        var position: [Int32: Int64] = [:]
    }

    private struct Cache {
        var letters: [Place: KafkaConsumerMessage] = [:]
        var order: [Place] = []
        var head = 0
        var bytes = 0
    }

    /// Creates a reader of `topic`; nothing connects before the first read.
    public init(topic: String, configuration: KafkaConsumerConfiguration, logger: Logger) {
        var configuration = configuration
        configuration.topics = []
        // Little prefetched: a read wants a few records per partition.
        configuration.properties["queued.max.messages.kbytes"] =
            configuration.properties["queued.max.messages.kbytes"] ?? "4096"
        configuration.properties["fetch.wait.max.ms"] = configuration.properties["fetch.wait.max.ms"] ?? "20"
        self.topic = topic
        self.configuration = configuration
        self.logger = logger
    }

    /// The records at `places`, by place; a place not read within `timeout` (deleted, or the cluster
    /// away) is left out.
    func read(_ places: [Place], timeout: Duration = .seconds(5)) async -> [Place: KafkaConsumerMessage] {
        var result: [Place: KafkaConsumerMessage] = [:]
        var missing: [Place] = []
        cache.withLock { cache in
            for place in places {
                if let letter = cache.letters[place] { result[place] = letter } else { missing.append(place) }
            }
        }
        guard !missing.isEmpty else { return result }
        await turn.lock()
        let read = await readFromKafka(Set(missing), deadline: .now + timeout)
        turn.unlock()
        cache.withLock { cache in
            for (place, letter) in read where cache.letters[place] == nil {
                cache.letters[place] = letter
                cache.order.append(place)
                cache.bytes += letter.value.count
            }
            while cache.order.count - cache.head > Self.cacheLetters || cache.bytes > Self.cacheBytes,
                cache.head < cache.order.count
            {
                let oldest = cache.order[cache.head]
                cache.head += 1
                cache.bytes -= cache.letters.removeValue(forKey: oldest)?.value.count ?? 0
            }
            if cache.head > Self.cacheLetters {
                cache.order.removeFirst(cache.head)
                cache.head = 0
            }
        }
        return result.merging(read) { first, _ in first }
    }

    /// One record, or `nil` when it cannot be read within `timeout`.
    func read(partition: Int32, offset: Int64, timeout: Duration = .seconds(5)) async -> KafkaConsumerMessage? {
        let place = Place(partition: partition, offset: offset)
        return await read([place], timeout: timeout)[place]
    }

    private func readFromKafka(_ places: Set<Place>, deadline: ContinuousClock.Instant) async
        -> [Place: KafkaConsumerMessage]
    {
        guard let consumer = liveReader() else { return [:] }
        wanted.withLock { $0 = Wanted(places: places) }
        var assigned: [Int32: Int64] = [:]
        var lastProgress = ContinuousClock.now
        var lastFound = 0
        while ContinuousClock.now < deadline, !Task.isCancelled {
            let generation = found.generation
            let (left, position, foundCount) = wanted.withLock { ($0.places, $0.position, $0.found.count) }
            if left.isEmpty { break }
            if foundCount != lastFound { (lastFound, lastProgress) = (foundCount, .now) }
            // Where each partition should read from: its first offset left, unless the reader is on its way.
            var next: [Int32: Int64] = [:]
            for place in left { next[place.partition] = min(next[place.partition] ?? .max, place.offset) }
            let stalled = ContinuousClock.now - lastProgress > .seconds(1)
            let reassign =
                stalled
                || next.contains { partition, first in
                    guard let start = assigned[partition] else { return true }
                    let at = position[partition] ?? start
                    return first < start || first > at + Self.readAhead
                }
            if reassign {
                do {
                    try await consumer.assign(
                        next.map { KafkaTopicPartitionOffset(topic: topic, partition: $0.key, offset: $0.value) })
                    assigned = next
                    lastProgress = .now
                    wanted.withLock { $0.position = [:] }
                } catch {
                    logger.warning("console: cannot read dead letters back: \(error)")
                    break
                }
            }
            // Until the reader finds a letter (what is left changes), or it is time to see whether it stalled:
            // the reader moving on alone can only make a reassignment less needed.
            let stallCheck = lastProgress + .seconds(1) + .milliseconds(10)
            await found.wait(after: generation, atMost: min(deadline, stallCheck) - .now)
        }
        try? await consumer.assign([])
        return wanted.withLock { wanted in
            defer { wanted = Wanted() }
            return wanted.found
        }
    }

    /// The reader, made anew when there is none or the last one had a fatal error.
    private func liveReader() -> KafkaConsumer? {
        let (live, old) = reader.withLock { reader -> (KafkaConsumer?, KafkaConsumer?) in
            if let current = reader, current.fatalError == nil { return (current, nil) }
            let old = reader
            reader = try? KafkaConsumer(
                configuration: configuration, logger: logger,
                recordHandler: { [self] record in
                    let isWanted = self.wanted.withLock { wanted in
                        let place = Place(partition: record.partition, offset: record.offset)
                        wanted.position[place.partition] = max(wanted.position[place.partition] ?? .min, place.offset)
                        guard wanted.places.remove(place) != nil else { return false }
                        wanted.found[place] = record.copy()
                        return true
                    }
                    if isWanted { self.found.notify() }
                })
            return (reader, old)
        }
        if let old { Task { await old.close() } }
        return live
    }

    /// Stops the reader.
    public func shutdown() async { await reader.withLock { $0 }?.close() }
}

/// A lock for async code: one holder at a time, waiters resumed in order.
final class AsyncLock: Sendable {
    private let state = Mutex<(held: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Waits until the lock is free and takes it.
    func lock() async {
        await withCheckedContinuation { continuation in
            let free = state.withLock { state in
                if state.held {
                    state.waiters.append(continuation)
                    return false
                }
                state.held = true
                return true
            }
            if free { continuation.resume() }
        }
    }

    /// Hands the lock to the next waiter, or frees it.
    func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
