import Foundation

/// What FCM's answers mean, by SPEC 10.6 and DELIVERY.md B3 and D: a pure function of the answer.
///
/// | answer | ``PushAnswer`` |
/// |---|---|
/// | 2xx | `delivered` (`validated` for a `validate_only` request), with the body's `name` as the message id |
/// | `errorCode` `UNREGISTERED` | `gone` |
/// | `errorCode` `SENDER_ID_MISMATCH` (FCM sends it as 403) | `rejected` |
/// | `errorCode` `THIRD_PARTY_AUTH_ERROR` (or the older `APNS_AUTH_ERROR`), 401, other 403 | credentials |
/// | `errorCode` `QUOTA_EXCEEDED`, `UNAVAILABLE`, `INTERNAL`; 408, 429, 5xx, any status outside 100...599 | transient, with `Retry-After` |
/// | other 3xx and 4xx (400 `INVALID_ARGUMENT`, a 404 without `UNREGISTERED`, 413) | `rejected` |
///
/// The `errorCode` is that of the `error.details[]` entry whose `@type` is
/// `type.googleapis.com/google.firebase.fcm.v1.FcmError`; without one, `error.status` (`INVALID_ARGUMENT`,
/// `UNAUTHENTICATED`, ...) is the reason. A body that is not JSON (an HTML error page) is classified by its status
/// alone, with the reason `answer_not_json`; one that could not be read whole, `answer_unreadable`.
public enum FCMAnswerClassifier {
    /// The `@type` of the detail that carries FCM's `errorCode`.
    public static let fcmErrorType = "type.googleapis.com/google.firebase.fcm.v1.FcmError"

    /// What the body of an FCM error says.
    public struct ErrorBody: Sendable, Hashable {
        /// The `errorCode` of the FcmError detail, if any.
        public var errorCode: String?
        /// `error.status`, the canonical code, if any.
        public var status: String?
        /// pushgate's own reason when the body is not Google's JSON error.
        public var problem: String?

        /// The reason a receipt gives: the `errorCode`, else the `status`, else pushgate's own.
        public var reason: String? { errorCode ?? status ?? problem }
    }

    /// Whether FCM refused the access token itself (401 without `THIRD_PARTY_AUTH_ERROR`): the sender makes a new
    /// one and sends again, once.
    public static func asksForNewAccessToken(_ answer: HTTPAnswer) -> Bool {
        answer.status == 401 && !isThirdPartyAuthError(errorBody(answer.body).errorCode)
    }

    /// The meaning of `exchange`; `validateOnly` says whether the request was a dry run, `now` the seconds since 1970
    /// an HTTP-date `Retry-After` is counted from.
    public static func classify(_ exchange: HTTPExchange, validateOnly: Bool, now: Int64) -> PushAnswer {
        switch exchange {
        case .failed(let failure): .transient(AnswerDetails(reason: failure.reason), retryAfter: nil)
        case .answered(let answer): classify(answer, validateOnly: validateOnly, now: now)
        }
    }

    /// The meaning of an answer (see the table above).
    public static func classify(_ answer: HTTPAnswer, validateOnly: Bool, now: Int64) -> PushAnswer {
        let status = answer.status
        if (200..<300).contains(status) {
            return .final(
                validateOnly ? .validated : .delivered,
                AnswerDetails(status: status, messageID: messageName(answer.body)))
        }
        let body = errorBody(answer.body)
        let details = AnswerDetails(status: status, reason: body.reason)
        let retryAfter = { answer.header("retry-after").flatMap { RetryAfter.parse($0, now: now) } }
        switch body.errorCode {
        case "UNREGISTERED": return .final(.gone, details)
        case "SENDER_ID_MISMATCH": return .final(.rejected, details)
        case let code where isThirdPartyAuthError(code): return .credentials(details)
        case "QUOTA_EXCEEDED", "UNAVAILABLE", "INTERNAL": return .transient(details, retryAfter: retryAfter())
        default: break
        }
        switch status {
        case 401, 403: return .credentials(details)
        case 408, 429, 500...599: return .transient(details, retryAfter: retryAfter())
        case 300..<500: return .final(.rejected, details)
        default: return .transient(details, retryAfter: retryAfter())
        }
    }

    /// Reads a Google JSON error: `{"error":{"status":..,"details":[{"@type":..FcmError,"errorCode":..}]}}`.
    /// Empty: no reason.
    public static func errorBody(_ body: [UInt8]?) -> ErrorBody {
        guard let body else { return ErrorBody(problem: "answer_unreadable") }
        guard !body.isEmpty else { return ErrorBody() }
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            return ErrorBody(problem: "answer_not_json")
        }
        guard let error = object["error"] as? [String: Any] else { return ErrorBody(problem: "answer_not_an_error") }
        let details = error["details"] as? [Any] ?? []
        let code =
            details.lazy.compactMap { $0 as? [String: Any] }
            .first { $0["@type"] as? String == fcmErrorType }?["errorCode"] as? String
        return ErrorBody(
            errorCode: code.flatMap(reasonText), status: (error["status"] as? String).flatMap(reasonText))
    }

    /// The `name` of a 200's body (`projects/P/messages/ID`), if any.
    static func messageName(_ body: [UInt8]?) -> String? {
        guard let body, let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            return nil
        }
        return (object["name"] as? String).flatMap { $0.isEmpty || $0.utf8.count > 1024 ? nil : $0 }
    }

    private static func isThirdPartyAuthError(_ code: String?) -> Bool {
        code == "THIRD_PARTY_AUTH_ERROR" || code == "APNS_AUTH_ERROR"
    }

    /// A code as receipts carry it: non-empty, at most 128 bytes, no control characters; else none.
    private static func reasonText(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.count <= 128, text.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) else {
            return nil
        }
        return text
    }
}
