import PushgateKafka

/// What the console keeps in memory of one dead letter: where it is, its time, and what the counts and
/// filters need, in a few dozen bytes with no reference inside (an array of them is one flat block).
/// The letter's headers, errors and value are read back from Kafka when it is shown (``LetterReader``).
///
/// Texts are ids into the index's tables (``DeadLetterTables``): stage, format, source topic, and the
/// error codes as a bitmask (a code past the 63rd sets the last bit, and the index keeps the letter's
/// codes beside). The key is kept as a 64-bit hash of its text as the API shows it.
public struct DeadLetterSummary: Sendable, Equatable {
    /// The dead-letter partition.
    public let partition: Int32
    /// The dead-letter offset.
    public let offset: Int64
    /// The record timestamp (ms since the epoch), `Int64.min` for a record without one.
    let time: Int64
    /// The source record's offset (when ``sourceTopic`` is not 0).
    let sourceOffset: Int64
    /// One bit per code id of ``DeadLetterTables/codes``; bit 63: a code beyond those.
    let codeBits: UInt64
    /// FNV-1a of the key's text (``DeadLetterQuery/Matcher/keyText(_:)``), when ``hasKey``.
    let keyHash: UInt64
    /// The source record's partition.
    let sourcePartition: Int32
    /// The value's length in bytes.
    public let valueBytes: Int32
    /// Id of the source record's topic; 0: no source.
    let sourceTopic: UInt16
    /// Id of the stage; 0: none (`none` in the counts).
    let stage: UInt8
    /// Id of the format; 0: none.
    let format: UInt8
    private let flags: UInt8

    /// The record timestamp (ms since the epoch), when it has one.
    public var timestampMs: Int64? { time == .min ? nil : time }
    /// Whether the record has a key.
    var hasKey: Bool { flags & 1 != 0 }
    /// Whether the record carries a `pushgate-errors` header that reads as a list of problems.
    public var writtenByPushgate: Bool { flags & 2 != 0 }

    init(
        partition: Int32, offset: Int64, timestampMs: Int64?, codeBits: UInt64, key: UInt64?, valueBytes: Int,
        source: (topic: UInt16, partition: Int32, offset: Int64)?, stage: UInt8, format: UInt8,
        writtenByPushgate: Bool
    ) {
        self.partition = partition
        self.offset = offset
        self.time = timestampMs ?? .min
        self.codeBits = codeBits
        self.keyHash = key ?? 0
        self.flags = (key == nil ? 0 : 1) | (writtenByPushgate ? 2 : 0)
        self.valueBytes = Int32(clamping: valueBytes)
        self.sourceTopic = source?.topic ?? 0
        self.sourcePartition = source?.partition ?? 0
        self.sourceOffset = source?.offset ?? 0
        self.stage = stage
        self.format = format
    }

    /// Newest first is the largest first: by time, then partition, then offset.
    func isOlder(than other: DeadLetterSummary) -> Bool {
        (time, partition, offset) < (other.time, other.partition, other.offset)
    }

    /// FNV-1a, 64 bits: the key's hash (stable, cheap, no per-process seed needed).
    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}

/// The texts the summaries name by id: stages, formats, source topics and error codes, each interned
/// once. A new text gets the next id; ids are never reused.
struct DeadLetterTables: Sendable {
    /// Stage texts; id 0 is none (a record pushgate did not write, or one without the header).
    private(set) var stages: [String] = [""]
    /// Format texts; id 0 is "none".
    private(set) var formats: [String] = [""]
    /// Source topics; id 0 is "no source".
    private(set) var topics: [String] = [""]
    /// Error codes, by id (bits 0...62 of a summary; the rest are kept beside).
    private(set) var codes: [String] = []
    private var stageIds: [String: UInt8] = [:]
    private var formatIds: [String: UInt8] = [:]
    private var topicIds: [String: UInt16] = [:]
    private var codeIds: [String: Int] = [:]

    /// How many codes have a bit of their own.
    static let codeBitCount = 63

    /// The id of `stage` (a stage past the 255th is counted as the last: pushgate has three).
    mutating func stage(_ text: String) -> UInt8 { Self.intern(text, in: &stages, ids: &stageIds, full: .max) }

    /// The id of `format` (past the 255th, 0: the format is then read back with the letter).
    mutating func format(_ text: String) -> UInt8 { Self.intern(text, in: &formats, ids: &formatIds, full: 0) }

    /// The id of a source topic (past the 65,535th, 0: no source filter finds it).
    mutating func topic(_ text: String) -> UInt16 { Self.intern(text, in: &topics, ids: &topicIds, full: 0) }

    /// The id of `text` in `texts`, added if new while `ID` has room; `full` once it has none.
    private static func intern<ID: FixedWidthInteger>(
        _ text: String, in texts: inout [String], ids: inout [String: ID], full: ID
    ) -> ID {
        if let id = ids[text] { return id }
        guard texts.count <= Int(ID.max) else { return full }
        texts.append(text)
        let id = ID(texts.count - 1)
        ids[text] = id
        return id
    }

    /// The id of `code`, new or not.
    mutating func code(_ text: String) -> Int {
        if let id = codeIds[text] { return id }
        codes.append(text)
        codeIds[text] = codes.count - 1
        return codes.count - 1
    }

    /// The ids of texts already known (`nil`: no letter has it).
    func knownStage(_ text: String) -> UInt8? { text == "none" ? 0 : stageIds[text] }
    func knownTopic(_ text: String) -> UInt16? { topicIds[text] }
    func knownCode(_ text: String) -> Int? { codeIds[text] }
}
