import Foundation

/// What APNs' answers mean, by SPEC 10.6 and DELIVERY.md's tables (part A4, D): a pure function of the answer.
///
/// | answer | ``PushAnswer`` |
/// |---|---|
/// | 2xx | `delivered`, with the answer's `apns-id` (else the request's) |
/// | 410 (`Unregistered`, `ExpiredToken`), 400 `BadDeviceToken` | `gone`; 410's `timestamp` (ms) is `goneSince` |
/// | other 400, 404, 405, 413, other 3xx and 4xx | `rejected`, with the reason |
/// | 403 (`ExpiredProviderToken` only after a new token was refused too) | credentials |
/// | 408, 429, 5xx, any other status, no answer | transient, with `Retry-After` |
///
/// The reason is the body's `reason`; a body that is not a JSON object gives the reason `answer_not_json` and one
/// that could not be read whole `answer_unreadable` (a 2xx answer's body is not read: Apple's is empty).
public enum APNsAnswerClassifier {
    /// The reason for which APNs wants a new provider token and the request made again (SPEC 10.3).
    public static let expiredProviderToken = "ExpiredProviderToken"

    /// What the body of an APNs error says.
    public struct ErrorBody: Sendable, Hashable {
        /// The `reason` member, or pushgate's own reason when the body is not what Apple sends.
        public var reason: String?
        /// The `timestamp` member (410): milliseconds since 1970.
        public var timestamp: Int64?
    }

    /// Whether `answer` is APNs asking for a new provider token (403 `ExpiredProviderToken`).
    public static func asksForNewToken(_ answer: HTTPAnswer) -> Bool {
        answer.status == 403 && errorBody(answer.body).reason == expiredProviderToken
    }

    /// The meaning of `exchange`; `apnsID` is the request's `apns-id`, `now` the seconds since 1970 an HTTP-date
    /// `Retry-After` is counted from.
    public static func classify(_ exchange: HTTPExchange, apnsID: String?, now: Int64) -> PushAnswer {
        switch exchange {
        case .failed(let failure):
            return .transient(AnswerDetails(reason: failure.reason, apnsID: apnsID), retryAfter: nil)
        case .answered(let answer):
            return classify(answer, apnsID: apnsID, now: now)
        }
    }

    /// The meaning of an answer (see the table above).
    public static func classify(_ answer: HTTPAnswer, apnsID: String?, now: Int64) -> PushAnswer {
        let status = answer.status
        let answeredID = answer.header("apns-id") ?? answer.header("apns-request-id") ?? apnsID
        if (200..<300).contains(status) {
            return .final(.delivered, AnswerDetails(status: status, apnsID: answeredID))
        }
        let body = errorBody(answer.body)
        var details = AnswerDetails(status: status, reason: body.reason, apnsID: answeredID)
        switch status {
        case 410:
            details.goneSince = body.timestamp
            return .final(.gone, details)
        case 400 where body.reason == "BadDeviceToken":
            return .final(.gone, details)
        case 403:
            return .credentials(details)
        case 408, 429, 500...599:
            let retryAfter = answer.header("retry-after").flatMap { RetryAfter.parse($0, now: now) }
            return .transient(details, retryAfter: retryAfter)
        case 300..<500:
            return .final(.rejected, details)
        default:
            return .transient(details, retryAfter: nil)
        }
    }

    /// Reads an error body: `{"reason": STRING, "timestamp": MILLISECONDS}` (both optional; the timestamp may
    /// be a number or a numeric string). Empty: no reason.
    public static func errorBody(_ body: [UInt8]?) -> ErrorBody {
        guard let body else { return ErrorBody(reason: "answer_unreadable") }
        guard !body.isEmpty else { return ErrorBody() }
        guard let decoded = try? JSONDecoder().decode(DecodedErrorBody.self, from: Data(body)) else {
            return ErrorBody(reason: "answer_not_json")
        }
        return ErrorBody(reason: decoded.reason, timestamp: decoded.timestamp)
    }
}

/// The members of an APNs error body that matter, each ignored when of another type.
private struct DecodedErrorBody: Decodable {
    var reason: String?
    var timestamp: Int64?

    enum CodingKeys: String, CodingKey {
        case reason
        case timestamp
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reason = try? container.decodeIfPresent(String.self, forKey: .reason)
        if let milliseconds = try? container.decodeIfPresent(Int64.self, forKey: .timestamp) {
            timestamp = milliseconds
        } else if let milliseconds = try? container.decodeIfPresent(Double.self, forKey: .timestamp) {
            timestamp = Int64(exactly: milliseconds.rounded(.down))
        } else if let text = try? container.decodeIfPresent(String.self, forKey: .timestamp) {
            timestamp = Int64(text)
        }
    }
}
