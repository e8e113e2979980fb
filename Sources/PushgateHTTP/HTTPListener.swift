import NIOCore
import NIOHTTP1
import NIOPosix

/// The listening socket shared by pushgate's HTTP servers (operations, playground): HTTP/1.1 with
/// NIO's error handling, one fresh handler per connection.
enum HTTPListener {
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
}
