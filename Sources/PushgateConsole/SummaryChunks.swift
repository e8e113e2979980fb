/// The summaries of a ``DeadLetterIndex``, by row, in chunks of ``chunkSize``.
///
/// A query scans a snapshot of the index (a copy, which shares the storage) while the reader goes on
/// adding letters. In one array, the first letter added during a scan copied the whole array (64 MB at a
/// million letters) for the snapshot's sake, under the index's lock. In chunks, it copies the list of
/// chunks and the last chunk at most. Growing never moves more than a chunk either.
struct SummaryChunks {
    /// Summaries per chunk (64 bytes each: 4 MiB).
    static let chunkSize = 1 << chunkShift
    private static let chunkShift = 16

    private var chunks: [[DeadLetterSummary]] = []

    /// How many summaries there are.
    private(set) var count = 0

    /// Adds `summary` as the row `count`.
    mutating func append(_ summary: DeadLetterSummary) {
        if count & (Self.chunkSize - 1) == 0 { chunks.append([]) }
        chunks[chunks.count - 1].append(summary)
        count += 1
    }

    /// The summary of `row` (below ``count``).
    subscript(row: Int) -> DeadLetterSummary {
        chunks[row >> Self.chunkShift][row & (Self.chunkSize - 1)]
    }

    /// The address of each chunk's storage, for tests that check what a copy shares.
    var chunkAddresses: [UnsafeRawPointer?] {
        chunks.map { chunk in chunk.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
    }
}
