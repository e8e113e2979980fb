import Logging
import ServiceLifecycle

/// The HTTP server of `/metrics`, `/health` and `/ready` (``OperationsRoutes``), a swift-service-lifecycle
/// `Service`: it serves until graceful shutdown, then stops accepting connections and returns.
///
/// Put it before the worker in the `ServiceGroup`: services shut down in reverse order, so it keeps
/// answering (`/ready` with 503) while the worker drains.
public struct OperationsServer: Service {
    private let host: String
    private let port: Int
    private let routes: OperationsRoutes
    private let logger: Logger
    private let onListening: @Sendable (Int) -> Void

    /// Creates the server.
    /// - Parameters:
    ///   - host: the address to bind. Default `0.0.0.0`: Kubernetes probes reach the pod IP.
    ///   - port: the TCP port; 0 picks a free one, reported to `onListening`.
    ///   - onListening: called with the bound port once the server accepts connections.
    public init(
        host: String = "0.0.0.0", port: Int, routes: OperationsRoutes, logger: Logger,
        onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.host = host
        self.port = port
        self.routes = routes
        self.logger = logger
        self.onListening = onListening
    }

    /// Binds, serves until graceful shutdown or cancellation, then closes the listening socket.
    /// - Throws: when the address cannot be bound (port in use, no permission).
    public func run() async throws {
        let (routes, host, port) = (self.routes, self.host, self.port)
        try await HTTPListener.serve(
            host: host, port: port, handler: { OperationsHTTPHandler(routes: routes) },
            cannotBind: { OperationsServerError(description: "cannot serve metrics on \(host):\(port): \($0)") },
            onBound: { boundPort in
                logger.info("serving /metrics, /health and /ready on \(host):\(boundPort)")
                onListening(boundPort)
            })
        logger.info("metrics server stopped")
    }
}

/// The operations server could not start.
public struct OperationsServerError: Error, CustomStringConvertible {
    /// What went wrong, naming the address.
    public let description: String
}
