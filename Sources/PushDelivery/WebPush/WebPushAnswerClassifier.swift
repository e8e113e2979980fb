/// What a push service's answers mean, by SPEC 10.6 (web push rows) and DELIVERY.md C4: a pure function of the
/// status. The body is never read: push services answer JSON, text or an HTML error page, and none of them decides
/// the outcome.
///
/// | answer | ``PushAnswer`` |
/// |---|---|
/// | 2xx | `delivered`, with the `Location` header |
/// | 404, 410 | `gone` |
/// | 400, 413, other 3xx and 4xx | `rejected` |
/// | 401, 403 | credentials: the VAPID key pauses |
/// | 408, 429, 5xx, any other status, no answer | transient, with `Retry-After` |
///
/// The reason is the status code's standard reason phrase (`Gone`, `Not Found`, ...), or the kind of failure.
public enum WebPushAnswerClassifier {
    /// The meaning of `exchange`; `now` is the seconds since 1970 an HTTP-date `Retry-After` is counted from.
    public static func classify(_ exchange: HTTPExchange, now: Int64) -> PushAnswer {
        switch exchange {
        case .failed(let failure):
            return .transient(AnswerDetails(reason: failure.reason), retryAfter: nil)
        case .answered(let answer):
            return classify(answer, now: now)
        }
    }

    /// The meaning of an answer (see the table above).
    public static func classify(_ answer: HTTPAnswer, now: Int64) -> PushAnswer {
        let status = answer.status
        var details = AnswerDetails(status: status, reason: reasonPhrase(status))
        switch status {
        case 200..<300:
            details.location = answer.header("location")
            return .final(.delivered, details)
        case 404, 410:
            return .final(.gone, details)
        case 401, 403:
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

    /// The reason phrase RFC 9110 gives `status` (`nil` for a status it does not define).
    public static func reasonPhrase(_ status: Int) -> String? {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 205: "Reset Content"
        case 206: "Partial Content"
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 407: "Proxy Authentication Required"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: nil
        }
    }
}
