import PushgateTracing

/// What one final outcome comes to in `push.receipts` (SPEC 10.7): a record keyed by the device id, whose
/// value says what the push service answered, for the application that owns the directory.
///
/// Every member but ``outcome`` and ``platform`` is optional: a receipt writes only what is known.
public struct Receipt: Sendable, Hashable {
    /// The record's key: the device id; for a broadcast the `apns-channel-id`; for `no_device` the
    /// delivered record's key (`nil` when it had none).
    public var key: String?
    /// The final outcome.
    public var outcome: Outcome
    /// The platform of the delivered record.
    public var platform: Platform
    /// The device id (absent for a broadcast and for `no_device`).
    public var device: String?
    /// The audience: the delivered record's key.
    public var audience: String?
    /// The device's app (bundle id, Firebase project, VAPID key name), or the default that served it.
    public var app: String?
    /// `TOPIC:PARTITION:OFFSET` of the delivered record.
    public var record: String?
    /// The delivered record's `pushgate-source`.
    public var source: String?
    /// The delivered record's `pushgate-id`.
    public var id: String?
    /// The delivered record's format.
    public var format: String?
    /// The HTTP status of the last answer.
    public var status: Int?
    /// The platform's reason, or pushgate's own (`no_app`, `timeout`, ...).
    public var reason: String?
    /// APNs 410's `timestamp`, in ms since 1970.
    public var goneSince: Int64?
    /// How many requests were made.
    public var attempts: Int?
    /// When the outcome was known, in ms since 1970.
    public var at: Int64?
    /// The `apns-id` of the request.
    public var apnsID: String?
    /// FCM's message `name`.
    public var messageID: String?
    /// A web push service's `Location`.
    public var location: String?
    /// The delivered record's span (SPEC section 11), written as `traceparent` and `tracestate` headers;
    /// `nil` when tracing is off.
    public var trace: TraceHeaders? = nil

    /// Creates a receipt of `outcome` on `platform`; the other members are set by name.
    public init(
        key: String?, outcome: Outcome, platform: Platform, device: String? = nil, audience: String? = nil,
        app: String? = nil, record: String? = nil, source: String? = nil, id: String? = nil, format: String? = nil,
        status: Int? = nil, reason: String? = nil, goneSince: Int64? = nil, attempts: Int? = nil, at: Int64? = nil,
        apnsID: String? = nil, messageID: String? = nil, location: String? = nil
    ) {
        self.key = key
        self.outcome = outcome
        self.platform = platform
        self.device = device
        self.audience = audience
        self.app = app
        self.record = record
        self.source = source
        self.id = id
        self.format = format
        self.status = status
        self.reason = reason
        self.goneSince = goneSince
        self.attempts = attempts
        self.at = at
        self.apnsID = apnsID
        self.messageID = messageID
        self.location = location
    }
}
