import NIOHTTP1
import Prometheus
import PushgateKafka

/// What the operations server answers: `GET /metrics` (Prometheus text format), `GET /health` (2xx while
/// the worker has no fatal error) and `GET /ready` (2xx once the worker is in its group with partitions
/// and its producer is connected; 503 before, while draining on shutdown and after a fatal error).
public struct OperationsRoutes: Sendable {
    /// One answer.
    public struct Response: Sendable, Equatable {
        /// The HTTP status.
        public var status: HTTPResponseStatus
        /// The `Content-Type`.
        public var contentType: String
        /// The body.
        public var body: [UInt8]
    }

    /// What `/metrics` answers, in the Prometheus text format.
    private let metrics: @Sendable () -> [UInt8]
    private let health: WorkerHealth

    /// Creates the routes over what `metrics` emits and the worker's health.
    public init(metrics: @escaping @Sendable () -> [UInt8], health: WorkerHealth) {
        self.metrics = metrics
        self.health = health
    }

    /// Creates the routes over a registry and the worker's health.
    public init(registry: PrometheusCollectorRegistry, health: WorkerHealth) {
        self.init(metrics: { registry.emitToBuffer() }, health: health)
    }

    /// The answer to `method uri` (the query string is ignored); `HEAD` is answered as `GET`, without body.
    public func respond(method: HTTPMethod, uri: String) -> Response {
        let path =
            uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? uri
        guard ["/metrics", "/health", "/ready"].contains(path) else {
            return .text(.notFound, "not found: try /metrics, /health or /ready\n")
        }
        guard method == .GET || method == .HEAD else { return .text(.methodNotAllowed, "use GET\n") }
        switch path {
        case "/metrics":
            return Response(
                status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8", body: metrics())
        case "/health":
            if let fatal = health.fatalError { return .text(.serviceUnavailable, "fatal: \(fatal)\n") }
            return .text(.ok, "ok\n")
        default:
            if let reason = health.notReadyReason { return .text(.serviceUnavailable, "not ready: \(reason)\n") }
            return .text(.ok, "ready: \(health.assignedPartitionCount) partition(s)\n")
        }
    }
}

extension OperationsRoutes.Response {
    static func text(_ status: HTTPResponseStatus, _ text: String) -> Self {
        Self(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }
}
