import NIOCore
import NIOHTTP1

/// Answers each HTTP/1.1 request of one connection through ``HTTPRoutes``, reading the body first.
/// A body above ``HTTPRoutes/maxRequestBytes`` is read to its end without being kept, then answered
/// 413 with `Connection: close` (so the client is not reset while it still sends). With a
/// ``BearerToken``, a request for `/api...` without it is answered 401 and never reaches the routes.
final class HTTPRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let routes: any HTTPRoutes
    private let token: BearerToken?
    private var request: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false

    init(routes: any HTTPRoutes, token: BearerToken?) {
        self.routes = routes
        self.token = token
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
            body = []
            let declared = head.headers.first(name: "Content-Length").flatMap { Int($0) } ?? 0
            tooLarge = declared > routes.maxRequestBytes
            if head.headers.first(name: "Expect")?.lowercased() == "100-continue" {
                if tooLarge {
                    // The client waits for our answer before it sends the body: refuse now, and close.
                    request = nil
                    respond(routes.tooLarge, to: head, keepAlive: false, context: context)
                    return
                }
                let proceed = HTTPResponseHead(version: head.version, status: .continue)
                context.writeAndFlush(wrapOutboundOut(.head(proceed)), promise: nil)
            }
        case .body(let chunk):
            guard !tooLarge else { return }
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
            if tooLarge {
                respond(routes.tooLarge, to: head, keepAlive: false, context: context)
            } else if let token, Self.needsToken(head.uri), !token.admits(head.headers.first(name: "Authorization")) {
                respond(BearerToken.unauthorized, to: head, keepAlive: head.isKeepAlive, context: context)
            } else {
                answer(head, body: received, context: context)
            }
        }
    }

    /// Whether `uri` is an API request (the page itself is served to anyone who can connect).
    static func needsToken(_ uri: String) -> Bool { uri == "/api" || uri.hasPrefix("/api/") || uri.hasPrefix("/api?") }

    /// Asks the routes (which may wait, for Kafka), then writes the answer on the connection's event loop.
    private func answer(_ head: HTTPRequestHead, body: [UInt8], context: ChannelHandlerContext) {
        let routes = self.routes
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.makeFutureWithTask {
            await routes.respond(method: head.method, uri: head.uri, headers: head.headers, body: body)
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
