/// What came of one HTTP request to a push service: an answer, or none.
public enum HTTPExchange: Sendable {
    /// The service answered (whatever the status).
    case answered(HTTPAnswer)
    /// No answer came: the connection failed or closed first, or the time ran out.
    case failed(HTTPFailure)
}

/// A push service's answer.
public struct HTTPAnswer: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields, names lowercased, in order.
    public var headers: [(name: String, value: String)]
    /// The body; `nil` when it could not be read whole (larger than ``PushHTTPClient/answerSizeLimit``, or the
    /// stream ended early).
    public var body: [UInt8]?

    /// Creates an answer.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8]? = []) {
        self.status = status
        self.headers = headers.map { (name: $0.name.lowercased(), value: $0.value) }
        self.body = body
    }

    /// The first header field named `name` (any case), if any.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first(where: { $0.name == wanted })?.value
    }
}

/// Why a request got no answer; each kind is a transient condition of SPEC 10.6.
public struct HTTPFailure: Error, Sendable, Hashable {
    /// The kinds of failure, named as receipts and logs give them.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No answer within the request timeout (`--request-timeout`).
        case timeout
        /// No connection could be made (refused, unreachable, DNS, connect timeout).
        case connectFailed = "connect_failed"
        /// The TLS handshake failed (an untrusted certificate, no common protocol).
        case tlsFailed = "tls_failed"
        /// The connection was reset or closed (a `GOAWAY`, a stream reset) before the answer was complete.
        case connectionClosed = "connection_closed"
        /// The request was cancelled (the worker is stopping).
        case cancelled
        /// Any other failure of the HTTP client.
        case requestFailed = "request_failed"
    }

    /// What kind of failure it was.
    public var kind: Kind
    /// The Swift type of the underlying error, for logs (never its description, which could carry a header).
    public var errorType: String

    /// Creates a failure.
    public init(kind: Kind, errorType: String = "") {
        self.kind = kind
        self.errorType = errorType
    }

    /// The reason a receipt gives: the kind's name.
    public var reason: String { kind.rawValue }
}
