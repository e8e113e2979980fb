import PushgateKafka
import Synchronization

/// Every record of the dead-letter topic the console has read, as compact summaries
/// (``DeadLetterSummary``), with counts per code and stage, filters and paging (``DeadLetterQuery``).
/// Headers, errors and values are not kept: ``LetterReader`` reads them back for what is shown.
///
/// Newest first means by record timestamp, then partition, then offset, all descending (a record
/// without a timestamp is the oldest). A page's cursor is the place of its last letter in that order, so
/// letters read while an operator pages, newer or older, neither repeat nor shift the pages to come.
///
/// Queries work on a snapshot (the arrays are copied on write, so taking one costs nothing): the reader
/// adding letters and other requests never wait for a scan, and a letter added during a scan copies at
/// most one chunk of the summaries (``SummaryChunks``).
public final class DeadLetterIndex: Sendable {
    private let state = Mutex(State())

    struct State {
        var letters = SummaryChunks()
        var tables = DeadLetterTables()
        /// The codes of letters with a code beyond the 63 with a bit of their own, by row.
        var extraCodes: [Int32: [Int]] = [:]
        /// Rows by partition, in offset order.
        var partitions: [Int32: PartitionRows] = [:]
        /// Rows, oldest first; valid up to `sortedCount` letters.
        var order: [Int32] = []
        var sortedCount = 0
    }

    /// The rows of one partition, in offset order (a reader reads each partition in order: appended).
    struct PartitionRows {
        var offsets: [Int64] = []
        var rows: [Int32] = []

        /// Adds `offset` at `row` in its place (at the end, but for a record read out of order).
        mutating func insert(offset: Int64, row: Int32, at place: Int) {
            if place == offsets.count {
                offsets.append(offset)
                rows.append(row)
            } else {
                offsets.insert(offset, at: place)
                rows.insert(row, at: place)
            }
        }

        /// Where `offset` is or would go.
        func place(of offset: Int64) -> Int {
            if let last = offsets.last, offset > last { return offsets.count }
            var (low, high) = (0, offsets.count)
            while low < high {
                let middle = (low + high) / 2
                if offsets[middle] < offset { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// A letter's place in the newest-first order, as a cursor: `TIMESTAMP:PARTITION:OFFSET`.
    public struct Cursor: Sendable, Equatable, Comparable, CustomStringConvertible {
        var timestampMs: Int64
        var partition: Int32
        var offset: Int64

        init(_ letter: DeadLetterSummary) {
            timestampMs = letter.time
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
        public var letters: [DeadLetterSummary]
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
    public init() {}

    /// Adds a record read from the dead-letter topic, reading it in place (a record read again, after a
    /// reconnection, is ignored).
    /// - Returns: what the follow-through needs of a new letter; `nil` for one read before.
    @discardableResult
    func add(record: some DeadLetterRecord) -> Added? {
        let fields = DeadLetterFields(record)
        let (partition, offset) = (record.partition, record.offset)
        let (timestamp, valueCount) = (record.timestampMs, record.valueCount)
        return state.withLock { state -> Added? in
            // Changed in place in the dictionary: a copy of the partition's rows per letter would be quadratic.
            let place = state.partitions[partition, default: PartitionRows()].place(of: offset)
            if let rows = state.partitions[partition], place < rows.offsets.count, rows.offsets[place] == offset {
                return nil
            }
            let row = Int32(state.letters.count)
            var bits: UInt64 = 0
            for code in fields.codes ?? [] {
                let id = state.tables.code(code)
                if id < DeadLetterTables.codeBitCount {
                    bits |= 1 << UInt64(id)
                } else {
                    bits |= 1 << 63
                    state.extraCodes[row, default: []].append(id)
                }
            }
            let summary = DeadLetterSummary(
                partition: partition, offset: offset, timestampMs: timestamp, codeBits: bits, key: fields.keyHash,
                valueBytes: valueCount,
                source: fields.source.map { (state.tables.topic($0.topic), $0.partition, $0.offset) },
                stage: fields.stage.map { state.tables.stage($0) } ?? 0,
                format: fields.format.map { state.tables.format($0) } ?? 0, writtenByPushgate: fields.codes != nil)
            state.letters.append(summary)
            state.partitions[partition, default: PartitionRows()].insert(offset: offset, row: row, at: place)
            return Added(
                source: fields.source.map { "\($0.topic):\($0.partition):\($0.offset)" }, stage: fields.stage,
                format: fields.format)
        }
    }

    /// Adds a record (for tests and test doubles: the console reads records in place).
    public func add(_ message: KafkaConsumerMessage) { add(record: message) }

    /// What a new letter says of the record it was made from.
    struct Added {
        /// `TOPIC:PARTITION:OFFSET` of the source record.
        var source: String?
        var stage: String?
        var format: String?
    }

    /// How many letters are held.
    public var count: Int { state.withLock { $0.letters.count } }

    /// The summary of the letter at `partition`/`offset`, if read.
    public func letter(partition: Int32, offset: Int64) -> DeadLetterSummary? {
        state.withLock { state in
            guard let rows = state.partitions[partition] else { return nil }
            let place = rows.place(of: offset)
            guard place < rows.offsets.count, rows.offsets[place] == offset else { return nil }
            return state.letters[Int(rows.rows[place])]
        }
    }

    /// Up to `limit` letters matching `query`, newest first, after `cursor` (from the newest when `nil`);
    /// `found` is the text search's answer for `q` (`nil`: `q` is not asked).
    public func page(_ query: DeadLetterQuery, limit: Int, after cursor: Cursor?, found: TextSearch.Found? = nil)
        -> Page
    {
        let snapshot = self.snapshot()
        let matcher = query.matcher(snapshot.tables, found: found)
        var codeCounts = [Int](repeating: 0, count: snapshot.tables.codes.count)
        var stageCounts = [Int](repeating: 0, count: 256)
        var matching = 0
        var page: [DeadLetterSummary] = []
        var next: Cursor?
        for row in snapshot.order.reversed() {
            let letter = snapshot.letters[Int(row)]
            guard matcher.inTimeRange(letter) else { continue }
            var bits = letter.codeBits & ~(1 << 63)
            while bits != 0 {
                codeCounts[bits.trailingZeroBitCount] += 1
                bits &= bits - 1
            }
            if letter.codeBits & (1 << 63) != 0 {
                for id in Set(snapshot.extraCodes[row] ?? []) { codeCounts[id] += 1 }
            }
            stageCounts[Int(letter.stage)] += 1
            guard matcher.matches(letter, row: row, extraCodes: snapshot.extraCodes) else { continue }
            matching += 1
            if cursor.map({ Cursor(letter) < $0 }) ?? true {
                if page.count < limit {
                    page.append(letter)
                } else if next == nil, let last = page.last {
                    next = Cursor(last)
                }
            }
        }
        var counts: [String: Int] = [:]
        for (id, count) in codeCounts.enumerated() where count > 0 { counts[snapshot.tables.codes[id]] = count }
        var stages: [String: Int] = [:]
        for (id, count) in stageCounts.enumerated() where count > 0 {
            stages[id == 0 ? "none" : snapshot.tables.stages[id], default: 0] += count
        }
        return Page(
            letters: page, counts: counts, stageCounts: stages, matching: matching, total: snapshot.letters.count,
            cursor: next)
    }

    /// Every letter matching `query`, oldest first (the order a bulk re-drive writes them in).
    public func all(matching query: DeadLetterQuery, found: TextSearch.Found? = nil) -> [DeadLetterSummary] {
        let snapshot = self.snapshot()
        let matcher = query.matcher(snapshot.tables, found: found)
        return snapshot.order.compactMap { row in
            let letter = snapshot.letters[Int(row)]
            return matcher.matches(letter, row: row, extraCodes: snapshot.extraCodes) ? letter : nil
        }
    }

    /// The stage and format texts of `letter`.
    func texts(of letter: DeadLetterSummary) -> (stage: String?, format: String?) {
        state.withLock { state in
            (
                letter.stage == 0 ? nil : state.tables.stages[Int(letter.stage)],
                letter.format == 0 ? nil : state.tables.formats[Int(letter.format)]
            )
        }
    }

    /// The row of the letter at `partition`/`offset` (its place in reading order), if read.
    func row(partition: Int32, offset: Int64) -> Int32? {
        state.withLock { state in
            guard let rows = state.partitions[partition] else { return nil }
            let place = rows.place(of: offset)
            return place < rows.offsets.count && rows.offsets[place] == offset ? rows.rows[place] : nil
        }
    }

    /// The letters, their tables and their order, oldest first, sorted first if letters came since the
    /// last sort (a sort of mostly ordered rows, as new letters mostly are the newest).
    private func snapshot() -> State {
        state.withLock { state in
            if state.sortedCount < state.letters.count {
                state.order += (Int32(state.sortedCount)..<Int32(state.letters.count))
                let letters = state.letters
                state.order.sort { letters[Int($0)].isOlder(than: letters[Int($1)]) }
                state.sortedCount = state.letters.count
            }
            return state
        }
    }
}
