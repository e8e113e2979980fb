/// How one push (a device's, or a broadcast's) ended: its final outcome and what its receipt reports.
public struct FinalAnswer: Sendable, Hashable {
    /// The final outcome.
    public var outcome: Outcome
    /// The last answer's details (or pushgate's own reason).
    public var details: AnswerDetails
    /// How many requests were made.
    public var attempts: Int
    /// When the outcome was known, in ms since 1970.
    public var atMilliseconds: Int64

    /// Creates an answer.
    public init(outcome: Outcome, details: AnswerDetails, attempts: Int, atMilliseconds: Int64) {
        self.outcome = outcome
        self.details = details
        self.attempts = attempts
        self.atMilliseconds = atMilliseconds
    }
}
