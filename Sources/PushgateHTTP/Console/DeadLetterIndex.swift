import Kafka
import Synchronization

/// Every record of the dead-letter topic the console has read, in memory, with counts per code and
/// stage, filters and paging (``DeadLetterQuery``).
///
/// Letters are kept in the order they were read: within a partition, that is offset order; newest
/// first is the reverse. A page's cursor is the read order of its last letter, so letters read while
/// an operator pages do not move the pages already seen.
public final class DeadLetterIndex: Sendable {
    /// How many bytes of a value are kept in memory; a longer value is read from Kafka when needed.
    public let keptValueBytes: Int
    private let state = Mutex(State())

    private struct State {
        var letters: [DeadLetter] = []
        var positions: [PartitionOffset: Int] = [:]
    }

    private struct PartitionOffset: Hashable {
        var partition: Int32
        var offset: Int64
    }

    /// One page of letters.
    public struct Page: Sendable {
        /// The letters, newest first.
        public var letters: [DeadLetter]
        /// How many letters have each code, over the query's time range (a letter counts once per code).
        public var counts: [String: Int]
        /// How many letters have each stage (`none`: not written by pushgate), over the time range.
        public var stageCounts: [String: Int]
        /// How many letters pass every filter.
        public var matching: Int
        /// How many letters the console holds.
        public var total: Int
        /// The cursor of the next page, `nil` on the last.
        public var cursor: Int?
    }

    /// Creates an empty index.
    public init(keptValueBytes: Int = 1 << 20) { self.keptValueBytes = keptValueBytes }

    /// Adds a record read from the dead-letter topic (a record read again, after a reconnection, is
    /// ignored).
    public func add(_ message: KafkaConsumerMessage) {
        let keep = keptValueBytes
        state.withLock { state in
            let position = PartitionOffset(partition: message.partition, offset: message.offset)
            guard state.positions[position] == nil else { return }
            state.positions[position] = state.letters.count
            state.letters.append(DeadLetter(message, keep: keep, sequence: state.letters.count))
        }
    }

    /// How many letters are held.
    public var count: Int { state.withLock { $0.letters.count } }

    /// The letter at `partition`/`offset`, if read.
    public func letter(partition: Int32, offset: Int64) -> DeadLetter? {
        state.withLock { state in
            state.positions[PartitionOffset(partition: partition, offset: offset)].map { state.letters[$0] }
        }
    }

    /// Up to `limit` letters matching `query`, newest first, read before `cursor` (all when `nil`).
    public func page(_ query: DeadLetterQuery, limit: Int, cursor: Int?) -> Page {
        state.withLock { state in
            var counts: [String: Int] = [:]
            var stages: [String: Int] = [:]
            var matching = 0
            var letters: [DeadLetter] = []
            var next: Int?
            for letter in state.letters.reversed() {
                guard query.inTimeRange(letter) else { continue }
                for code in letter.codes { counts[code, default: 0] += 1 }
                stages[letter.stage ?? "none", default: 0] += 1
                guard query.matches(letter) else { continue }
                matching += 1
                if cursor.map({ letter.sequence < $0 }) ?? true {
                    if letters.count < limit {
                        letters.append(letter)
                    } else if next == nil {
                        next = letters.last?.sequence
                    }
                }
            }
            return Page(
                letters: letters, counts: counts, stageCounts: stages, matching: matching,
                total: state.letters.count, cursor: next)
        }
    }

    /// Every letter matching `query`, oldest first (the order a bulk re-drive writes them in).
    public func all(matching query: DeadLetterQuery) -> [DeadLetter] {
        state.withLock { $0.letters.filter { query.matches($0) } }
    }
}
