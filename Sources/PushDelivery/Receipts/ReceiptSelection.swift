/// Which final outcomes get a receipt (`--receipts`, SPEC 10.7).
public enum ReceiptSelection: String, Sendable, CaseIterable, Hashable {
    /// `gone`, `rejected` and `expired` only (the default).
    case failures
    /// Every final outcome.
    case all
    /// None.
    case none

    /// Whether a receipt is written for `outcome`.
    public func selects(_ outcome: Outcome) -> Bool {
        switch self {
        case .failures: outcome.isFailure
        case .all: true
        case .none: false
        }
    }
}
