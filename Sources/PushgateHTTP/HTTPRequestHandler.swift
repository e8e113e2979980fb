import NIOCore
import NIOHTTP1

/// Answers each HTTP/1.1 request of one connection through ``HTTPRoutes``, reading the body first.
///
/// Before a request reaches the routes:
/// - a body above ``HTTPRoutes/maxRequestBytes`` is read to its end without being kept, then answered
///   413 with `Connection: close` (so the client is not reset while it still sends);
/// - with a ``BearerToken``, a request for anything but the page itself (`/`, `/index.html`) without the
///   token is answered 401 (decided from its head; its body is not kept);
/// - an API request must come from the page's own origin: a cross-site `Origin` or `Sec-Fetch-Site`, or a
///   `POST` that is not `application/json` (which a foreign page can send without asking), is answered
///   403 or 415; a server bound to loopback answers 421 to a `Host` that is not a loopback name (another
///   site's name resolved to 127.0.0.1).
///
/// `HEAD` is answered as `GET`, without the body.
final class HTTPRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let routes: any HTTPRoutes
    private let token: BearerToken?
    private let loopbackOnly: Bool
    private var request: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false
    private var refusal: HTTPResponse?

    /// - Parameter loopbackOnly: whether the server is bound to a loopback address (the `Host` check).
    init(routes: any HTTPRoutes, token: BearerToken?, loopbackOnly: Bool) {
        self.routes = routes
        self.token = token
        self.loopbackOnly = loopbackOnly
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
            body = []
            refusal = Self.refusal(of: head, token: token, loopbackOnly: loopbackOnly)
            let declared = head.headers.first(name: "Content-Length").flatMap { Int($0) } ?? 0
            tooLarge = refusal == nil && declared > routes.maxRequestBytes
            if head.headers.first(name: "Expect")?.lowercased() == "100-continue" {
                if tooLarge || refusal != nil {
                    // The client waits for our answer before it sends the body: refuse now, and close.
                    request = nil
                    respond(refusal ?? routes.tooLarge, to: head, keepAlive: false, context: context)
                    return
                }
                let proceed = HTTPResponseHead(version: head.version, status: .continue)
                context.writeAndFlush(wrapOutboundOut(.head(proceed)), promise: nil)
            }
        case .body(let chunk):
            guard !tooLarge, refusal == nil else { return }
            if body.count + chunk.readableBytes > routes.maxRequestBytes {
                tooLarge = true
                body = []
            } else {
                body.append(contentsOf: chunk.readableBytesView)
            }
        case .end:
            guard let head = request else { return }
            request = nil
            let received = body
            body = []
            if let refusal {
                respond(refusal, to: head, keepAlive: head.isKeepAlive, context: context)
            } else if tooLarge {
                respond(routes.tooLarge, to: head, keepAlive: false, context: context)
            } else {
                answer(head, body: received, context: context)
            }
        }
    }

    /// Whether `uri` is the page itself, served to anyone who can connect (it holds no data).
    static func isPage(_ uri: String) -> Bool {
        let path = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return path == "/" || path == "/index.html"
    }

    /// The answer to a request refused from its head alone, or `nil`.
    static func refusal(of head: HTTPRequestHead, token: BearerToken?, loopbackOnly: Bool) -> HTTPResponse? {
        if loopbackOnly, let host = head.headers.first(name: "Host"),
            !ListenAddressRule.isLoopback(ListenAddressRule.hostName(ofHeader: host))
        {
            return .text(
                .misdirectedRequest, "this server answers to loopback names only (127.0.0.1, localhost), not \(host)\n")
        }
        guard !isPage(head.uri) else { return nil }
        if let token, !token.admits(head.headers.first(name: "Authorization")) { return BearerToken.unauthorized }
        if let site = head.headers.first(name: "Sec-Fetch-Site")?.lowercased(), site != "same-origin", site != "none" {
            return .text(.forbidden, "requests from other sites are refused\n")
        }
        if let origin = head.headers.first(name: "Origin"), let host = head.headers.first(name: "Host"),
            !(origin.hasSuffix("://" + host))
        {
            return .text(.forbidden, "requests from other origins are refused\n")
        }
        if head.method == .POST {
            let type = head.headers.first(name: "Content-Type")?.split(separator: ";").first?
                .trimmingCharacters(in: .whitespaces).lowercased()
            if type != "application/json" {
                return .text(.unsupportedMediaType, "send the body as Content-Type: application/json\n")
            }
        }
        return nil
    }

    /// Asks the routes (which may wait, for Kafka), then writes the answer on the connection's event loop.
    private func answer(_ head: HTTPRequestHead, body: [UInt8], context: ChannelHandlerContext) {
        let routes = self.routes
        let method = head.method == .HEAD ? HTTPMethod.GET : head.method
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.makeFutureWithTask {
            await routes.respond(method: method, uri: head.uri, headers: head.headers, body: body)
        }.whenSuccess { response in
            let (handler, context) = bound.value
            handler.respond(response, to: head, keepAlive: head.isKeepAlive, context: context)
        }
    }

    private func respond(
        _ response: HTTPResponse, to head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "Cache-Control", value: "no-store")
        // The pages are never framed by another site, nor read as another type than they say.
        headers.add(name: "Content-Security-Policy", value: "frame-ancestors 'none'")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        let responseHead = HTTPResponseHead(version: head.version, status: response.status, headers: headers)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        if head.method != .HEAD {
            let buffer = context.channel.allocator.buffer(bytes: response.body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
