import NIOHTTP1

/// One answer of pushgate's page servers (playground, console).
public struct HTTPResponse: Sendable, Equatable {
    /// The HTTP status.
    public var status: HTTPResponseStatus
    /// The `Content-Type`.
    public var contentType: String
    /// The body.
    public var body: [UInt8]
    /// Further headers (`WWW-Authenticate` of a 401).
    public var headers: [(String, String)] = []

    /// Creates an answer.
    public init(status: HTTPResponseStatus, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    /// A plain-text answer.
    public static func text(_ status: HTTPResponseStatus, _ text: String) -> Self {
        Self(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }

    /// A JSON answer with `body` as it is.
    public static func json(_ body: [UInt8], status: HTTPResponseStatus = .ok) -> Self {
        Self(status: status, contentType: "application/json", body: body)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.status == rhs.status && lhs.contentType == rhs.contentType && lhs.body == rhs.body
            && lhs.headers.map { [$0.0, $0.1] } == rhs.headers.map { [$0.0, $0.1] }
    }
}

/// What a page server answers: the request's method, URI, headers and body (read whole, at most
/// ``maxRequestBytes``) in, one ``HTTPResponse`` out.
public protocol HTTPRoutes: Sendable {
    /// The largest request body read, in bytes; a larger one is answered ``tooLarge``.
    var maxRequestBytes: Int { get }
    /// The answer to a body larger than ``maxRequestBytes`` (413).
    var tooLarge: HTTPResponse { get }
    /// The answer to one request.
    func respond(method: HTTPMethod, uri: String, headers: HTTPHeaders, body: [UInt8]) async -> HTTPResponse
}

extension HTTPRoutes {
    /// `uri` without its query string.
    public static func path(of uri: String) -> Substring {
        uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? Substring(uri)
    }
}
