import NIOCore
import NIOHTTP1

/// Answers each HTTP/1.1 request of one connection through ``OperationsRoutes``. Keep-alive requests
/// keep the connection; a request with `Connection: close` (or HTTP/1.0 without keep-alive) gets
/// `Connection: close` and the connection is closed once the response is written.
final class OperationsHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let routes: OperationsRoutes
    private var request: HTTPRequestHead?

    init(routes: OperationsRoutes) { self.routes = routes }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
        case .body:
            return
        case .end:
            guard let head = request else { return }
            request = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let response = routes.respond(method: head.method, uri: head.uri)
        let keepAlive = head.isKeepAlive
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: response.status, headers: headers))),
            promise: nil)
        if head.method != .HEAD {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))),
                promise: nil)
        }
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
