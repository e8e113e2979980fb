/// What one request to a push service came to, classified by SPEC 10.6: final, or to be tried again.
public enum PushAnswer: Sendable, Hashable {
    /// A final outcome, with what the receipt reports of the answer.
    case final(Outcome, AnswerDetails)
    /// Worth trying again after the back-off (429, 5xx, a connection lost, no answer in time);
    /// `retryAfter` is the least wait the service asked for (`Retry-After`), if any.
    case transient(AnswerDetails, retryAfter: Duration?)
    /// The credentials were refused: the platform (FCM: the project; web push: the VAPID key) pauses.
    case credentials(AnswerDetails)

    /// The details of the answer, whatever its kind.
    public var details: AnswerDetails {
        switch self {
        case .final(_, let details), .transient(let details, _), .credentials(let details): details
        }
    }
}

/// What a receipt says about the last answer of a push service (SPEC 10.7).
public struct AnswerDetails: Sendable, Hashable {
    /// The HTTP status, or `nil` when there was no answer (connection lost, timeout, no request made).
    public var status: Int?
    /// The platform's reason (APNs `reason`, FCM `errorCode` or `status`, a web push status's reason
    /// phrase) or pushgate's own (`endpoint_not_allowed`, `no_app`, `unknown_app`, `timeout`, ...).
    public var reason: String?
    /// APNs 410's `timestamp`: since when the token is no longer valid, in ms since 1970.
    public var goneSince: Int64?
    /// The `apns-id` the request carried.
    public var apnsID: String?
    /// FCM's message `name`.
    public var messageID: String?
    /// A web push service's `Location` header.
    public var location: String?

    /// Creates the details of an answer.
    public init(
        status: Int? = nil, reason: String? = nil, goneSince: Int64? = nil, apnsID: String? = nil,
        messageID: String? = nil, location: String? = nil
    ) {
        self.status = status
        self.reason = reason
        self.goneSince = goneSince
        self.apnsID = apnsID
        self.messageID = messageID
        self.location = location
    }
}
