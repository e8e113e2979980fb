/// The final outcome of a (record, device) pair (SPEC 10.6).
public enum Outcome: String, Sendable, CaseIterable, Hashable {
    /// APNs 200, FCM 200, web push 2xx.
    case delivered
    /// FCM 200 to a `validate_only` request.
    case validated
    /// A `pushgate-dry-run: true` record: nothing was sent (APNs, web push).
    case dryRun = "dry_run"
    /// The device will never take a push again; the application should remove it from the directory.
    case gone
    /// Retrying cannot help (a bad request, an unknown app, an endpoint not allowed, ...).
    case rejected
    /// The record's time ran out before a final answer.
    case expired
    /// The record's audience had no device on the record's platform (one outcome per record).
    case noDevice = "no_device"

    /// Whether `--receipts failures` (the default) writes a receipt for this outcome.
    public var isFailure: Bool {
        switch self {
        case .gone, .rejected, .expired: true
        case .delivered, .validated, .dryRun, .noDevice: false
        }
    }
}
