import Logging
import PushgateKafka
import Synchronization

/// The text filter `q`: the console keeps no values, so a search reads the dead-letter topic's values
/// back from Kafka, in the background, and answers with what it found so far and how far it got.
///
/// A search covers the letters stored when it starts (from each partition's first offset to its end
/// then); asked again once it is done and more letters have come, it starts over. The most recent
/// ``keptSearches`` searches are kept; an older one is stopped and forgotten.
public final class TextSearch: Sendable {
    /// The letters a search found: a bit per row of the index.
    public struct Found: Sendable {
        var bits: [UInt64] = []

        /// Whether the letter at `row` contains the text.
        func contains(_ row: Int32) -> Bool {
            let word = Int(row) >> 6
            return word < bits.count && bits[word] & (1 << UInt64(row & 63)) != 0
        }

        mutating func insert(_ row: Int32) {
            let word = Int(row) >> 6
            if word >= bits.count { bits += repeatElement(0, count: word - bits.count + 1) }
            bits[word] |= 1 << UInt64(row & 63)
        }
    }

    /// How far a search got.
    public struct Progress: Sendable {
        /// The letters found so far.
        public var found: Found
        /// How many records it has read.
        public var scanned: Int
        /// How many records it reads in all (those stored when it started).
        public var total: Int
        /// Whether it has read them all.
        public var done: Bool
        /// Why it stopped early, if it did.
        public var error: String?
    }

    /// How many searches are kept.
    static let keptSearches = 4
    /// How long a search waits for a record before it counts what it has not read as gone.
    static let idleLimit: Duration = .seconds(10)

    private let topic: String
    private let configuration: KafkaConsumerConfiguration
    private let index: DeadLetterIndex
    private let logger: Logger
    private let searches = Mutex<[(needle: [UInt8], search: Search)]>([])

    /// Creates the searches of `topic`, whose letters `index` holds.
    public init(topic: String, configuration: KafkaConsumerConfiguration, index: DeadLetterIndex, logger: Logger) {
        var configuration = configuration
        configuration.topics = []
        // A fetch's answer stays in memory while any of its records waits to be read: librdkafka's 50 MiB
        // answers, on top of the index, took the console past its memory bound. A search runs beside the
        // index, the letter cache and the readers, so it reads with 8 MiB of each (it still reads a
        // million letters in seconds).
        configuration.properties["fetch.max.bytes"] = configuration.properties["fetch.max.bytes"] ?? "8388608"
        configuration.properties["queued.max.messages.kbytes"] =
            configuration.properties["queued.max.messages.kbytes"] ?? "8192"
        self.topic = topic
        self.configuration = configuration
        self.index = index
        self.logger = logger
    }

    /// How far the search for `needle` is, starting it if it is new (or done and letters came since);
    /// waits up to `wait` for it to be done.
    public func progress(of needle: [UInt8], wait: Duration) async -> Progress {
        let search = self.search(for: needle)
        let deadline = ContinuousClock.now + wait
        while !Task.isCancelled {
            let generation = search.finished.generation
            let now = ContinuousClock.now
            if now >= deadline || search.progress.done { break }
            await search.finished.wait(after: generation, atMost: deadline - now)
        }
        return search.progress(resolvingWith: index)
    }

    private func search(for needle: [UInt8]) -> Search {
        let letters = index.count
        let (search, stopped) = searches.withLock { searches -> (Search, Search?) in
            if let place = searches.firstIndex(where: { $0.needle == needle }) {
                let kept = searches.remove(at: place)
                let progress = kept.search.progress
                if !progress.done || progress.error == nil && kept.search.lettersAtStart >= letters {
                    searches.append(kept)
                    return (kept.search, nil)
                }
            }
            let search = Search(needle: needle, lettersAtStart: letters)
            searches.append((needle, search))
            let stopped = searches.count > Self.keptSearches ? searches.removeFirst().search : nil
            return (search, stopped)
        }
        stopped?.stop()
        if search.start() {
            let (topic, configuration, index, logger) = (self.topic, self.configuration, self.index, self.logger)
            let task = Task {
                await search.run(topic: topic, configuration: configuration, index: index, logger: logger)
            }
            search.attach(task)
        }
        return search
    }

    /// Stops every search.
    public func shutdown() {
        for search in searches.withLock({ $0.map(\.search) }) { search.stop() }
    }
}
