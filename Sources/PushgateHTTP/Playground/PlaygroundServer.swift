import Logging
import ServiceLifecycle

/// The HTTP server of `pushgate playground` (``PlaygroundRoutes``), a swift-service-lifecycle `Service`:
/// it serves until graceful shutdown or cancellation, then stops accepting connections and returns.
public struct PlaygroundServer: Service {
    /// The address bound unless told otherwise, loopback: only this machine can reach the page.
    public static let defaultHost = "127.0.0.1"

    private let host: String
    private let port: Int
    private let routes: PlaygroundRoutes
    private let token: BearerToken?
    private let logger: Logger
    private let onListening: @Sendable (Int) -> Void

    /// Creates the server.
    /// - Parameters:
    ///   - host: the address to bind. Default: ``defaultHost``.
    ///   - port: the TCP port; 0 picks a free one, reported to `onListening`.
    ///   - token: when given, every `/api` request must carry it (``BearerToken``).
    ///   - onListening: called with the bound port once the server accepts connections.
    public init(
        host: String = Self.defaultHost, port: Int, routes: PlaygroundRoutes, token: BearerToken? = nil, logger: Logger,
        onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.host = host
        self.port = port
        self.routes = routes
        self.token = token
        self.logger = logger
        self.onListening = onListening
    }

    /// Binds, serves until graceful shutdown or cancellation, then closes the listening socket.
    /// - Throws: ``PlaygroundServerError`` when the address cannot be bound (port in use, no permission).
    public func run() async throws {
        let (routes, host, port, token) = (self.routes, self.host, self.port, self.token)
        let loopbackOnly = ListenAddressRule.isLoopback(host)
        try await HTTPListener.serve(
            host: host, port: port,
            handler: { HTTPRequestHandler(routes: routes, token: token, loopbackOnly: loopbackOnly) },
            cannotBind: { PlaygroundServerError(description: "cannot serve the playground on \(host):\(port): \($0)") },
            onBound: { boundPort in
                let shown = host.contains(":") ? "[\(host)]" : host
                logger.notice("playground: http://\(shown):\(boundPort)/")
                onListening(boundPort)
            })
        logger.info("playground stopped")
    }
}

/// The playground server could not start.
public struct PlaygroundServerError: Error, CustomStringConvertible {
    /// What went wrong, naming the address.
    public let description: String

    /// Creates the error from what went wrong.
    public init(description: String) { self.description = description }
}
