import PushgateKafka
import Synchronization

/// Every record of the dead-letter topic the console has read, in memory, with counts per code and
/// stage, filters and paging (``DeadLetterQuery``).
///
/// Newest first means by record timestamp, then partition, then offset, all descending (a record
/// without a timestamp is the oldest). A page's cursor is the place of its last letter in that order, so
/// letters read while an operator pages, newer or older, neither repeat nor shift the pages to come.
///
/// Queries work on a snapshot (the arrays are copied on write, so taking one costs nothing): the reader
/// adding letters and other requests never wait for a search.
public final class DeadLetterIndex: Sendable {
    /// How many bytes of a value are kept in memory; a longer value is read from Kafka when needed.
    public let keptValueBytes: Int
    private let state = Mutex(State())

    private struct State {
        var letters: [DeadLetter] = []
        var positions: [PartitionOffset: Int] = [:]
        /// Positions in ``letters``, oldest first; valid up to `sortedCount` letters.
        var order: [Int] = []
        var sortedCount = 0
    }

    private struct PartitionOffset: Hashable {
        var partition: Int32
        var offset: Int64
    }

    /// A letter's place in the newest-first order, as a cursor: `TIMESTAMP:PARTITION:OFFSET`.
    public struct Cursor: Sendable, Equatable, Comparable, CustomStringConvertible {
        var timestampMs: Int64
        var partition: Int32
        var offset: Int64

        init(_ letter: DeadLetter) {
            timestampMs = letter.timestampMs ?? .min
            partition = letter.partition
            offset = letter.offset
        }

        /// Reads a cursor a page answered.
        public init?(_ text: String) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, let timestamp = Int64(parts[0]), let partition = Int32(parts[1]),
                let offset = Int64(parts[2])
            else { return nil }
            (timestampMs, self.partition, self.offset) = (timestamp, partition, offset)
        }

        public var description: String { "\(timestampMs):\(partition):\(offset)" }

        public static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.timestampMs, lhs.partition, lhs.offset) < (rhs.timestampMs, rhs.partition, rhs.offset)
        }
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
        public var cursor: Cursor?
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

    /// Up to `limit` letters matching `query`, newest first, after `cursor` (from the newest when `nil`).
    public func page(_ query: DeadLetterQuery, limit: Int, after cursor: Cursor?) -> Page {
        let (letters, order) = snapshot()
        var counts: [String: Int] = [:]
        var stages: [String: Int] = [:]
        var matching = 0
        var page: [DeadLetter] = []
        var next: Cursor?
        let matcher = query.matcher()
        for position in order.reversed() {
            let letter = letters[position]
            guard query.inTimeRange(letter) else { continue }
            for code in letter.codes { counts[code, default: 0] += 1 }
            stages[letter.stage ?? "none", default: 0] += 1
            guard matcher.matches(letter) else { continue }
            matching += 1
            if cursor.map({ Cursor(letter) < $0 }) ?? true {
                if page.count < limit {
                    page.append(letter)
                } else if next == nil, let last = page.last {
                    next = Cursor(last)
                }
            }
        }
        return Page(
            letters: page, counts: counts, stageCounts: stages, matching: matching, total: letters.count, cursor: next)
    }

    /// Every letter matching `query`, oldest first (the order a bulk re-drive writes them in).
    public func all(matching query: DeadLetterQuery) -> [DeadLetter] {
        let (letters, order) = snapshot()
        let matcher = query.matcher()
        return order.lazy.map { letters[$0] }.filter { matcher.matches($0) }
    }

    /// The letters and their order, oldest first, sorted first if letters came since the last sort (a
    /// sort of mostly ordered positions, as new letters mostly are the newest).
    private func snapshot() -> ([DeadLetter], [Int]) {
        state.withLock { state in
            if state.sortedCount < state.letters.count {
                state.order += state.sortedCount..<state.letters.count
                let letters = state.letters
                state.order.sort { Cursor(letters[$0]) < Cursor(letters[$1]) }
                state.sortedCount = state.letters.count
            }
            return (state.letters, state.order)
        }
    }
}
