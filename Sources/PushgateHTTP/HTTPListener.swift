import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// The listening socket shared by pushgate's HTTP servers (operations, playground, console): HTTP/1.1
/// with NIO's error handling, one fresh handler per connection.
public enum HTTPListener {
    /// Binds `host:port` (0 picks a free port) on NIO's shared event loop group.
    static func bind<Handler: ChannelInboundHandler>(
        host: String, port: Int, handler makeHandler: @escaping @Sendable () -> Handler
    ) async throws -> any Channel where Handler.InboundIn == HTTPServerRequestPart {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(makeHandler())
                }
            }
            .bind(host: host, port: port).get()
    }

    /// Serves `host:port` with `makeHandler`'s handlers until graceful shutdown or cancellation, then
    /// closes the listening socket: the `run()` of pushgate's HTTP services. `onBound` gets the bound
    /// port once connections are accepted.
    /// - Throws: `cannotBind(error)` when the address cannot be bound (port in use, no permission).
    static func serve<Handler: ChannelInboundHandler>(
        host: String, port: Int, handler makeHandler: @escaping @Sendable () -> Handler,
        cannotBind: (any Error) -> any Error, onBound: (Int) -> Void
    ) async throws where Handler.InboundIn == HTTPServerRequestPart {
        let channel: any Channel
        do {
            channel = try await bind(host: host, port: port, handler: makeHandler)
        } catch {
            throw cannotBind(error)
        }
        onBound(channel.localAddress?.port ?? port)
        try? await gracefulShutdown()
        try? await channel.close()
    }
}

extension HTTPListener {
    /// Serves `routes` on `host:port` until graceful shutdown or cancellation, with the token and, on a
    /// loopback `host`, the check of each request's `Host` header that every page server gets.
    /// - Throws: `cannotBind(error)` when the address cannot be bound (port in use, no permission).
    public static func serve(
        routes: any HTTPRoutes, host: String, port: Int, token: BearerToken?,
        cannotBind: (any Error) -> any Error, onBound: (Int) -> Void
    ) async throws {
        let loopbackOnly = ListenAddressRule.isLoopback(host)
        try await serve(
            host: host, port: port,
            handler: { HTTPRequestHandler(routes: routes, token: token, loopbackOnly: loopbackOnly) },
            cannotBind: cannotBind, onBound: onBound)
    }
}
