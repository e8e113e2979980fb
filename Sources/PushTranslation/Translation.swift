import PushModel

/// What translating one input record gave: the records to write and, for logs and metrics, the
/// diagnostics behind them.
public struct Translation: Sendable, Equatable {
    /// The records to write, in SPEC order (outputs, then dead letters): what ``Translator/translate(_:readAtMs:)`` returns.
    public var records: [OutputRecord]
    /// One entry per dead letter in ``records``, in the same order.
    public var deadLetters: [DeadLetterReport]
    /// Every warning found, once each: the validate stage's, then each routed format's emit warnings.
    public var warnings: [Diagnostic]

    /// Creates a translation.
    public init(records: [OutputRecord], deadLetters: [DeadLetterReport] = [], warnings: [Diagnostic] = []) {
        self.records = records
        self.deadLetters = deadLetters
        self.warnings = warnings
    }

    /// The records, taken out of the translation (not copied).
    public consuming func takeRecords() -> [OutputRecord] {
        records
    }
}

/// Why one dead letter was written: its stage, format and errors.
public struct DeadLetterReport: Sendable, Equatable {
    /// The stage that failed.
    public var stage: Stage
    /// The format whose emitter failed (stage `emit` only).
    public var format: OutputFormat?
    /// Every error, sorted as in `pushgate-errors`.
    public var errors: [Diagnostic]
    /// The `pushgate-id` of the dead letter: the payload's id, else `TOPIC:PARTITION:OFFSET`.
    public var id: String
    /// `TOPIC:PARTITION:OFFSET` of the input record.
    public var source: String

    /// Creates a report.
    public init(stage: Stage, format: OutputFormat?, errors: [Diagnostic], id: String, source: String) {
        self.stage = stage
        self.format = format
        self.errors = errors
        self.id = id
        self.source = source
    }
}
