import Foundation
import NIOCore
import NIOHTTP1

/// Answers each HTTP/1.1 request of one connection through ``PlaygroundRoutes``, reading the body first.
/// A body above ``PlaygroundRoutes/maxRequestBytes`` is read to its end without being kept, then answered
/// 413 with `Connection: close` (so the client is not reset while it still sends).
final class PlaygroundHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let routes: PlaygroundRoutes
    private var request: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false

    init(routes: PlaygroundRoutes) { self.routes = routes }

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
            let response: PlaygroundRoutes.Response
            if tooLarge {
                response = routes.tooLarge
            } else {
                let nowMs = Int64(Date().timeIntervalSince1970 * 1000)
                response = routes.respond(method: head.method, uri: head.uri, body: body, nowMs: nowMs)
            }
            body = []
            respond(response, to: head, keepAlive: head.isKeepAlive && !tooLarge, context: context)
        }
    }

    private func respond(
        _ response: PlaygroundRoutes.Response, to head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
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
