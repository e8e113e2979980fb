import ServiceLifecycle

/// A service whose graceful shutdown may take at most `grace`: then it is cancelled. For the tracing exporter
/// (SPEC section 11), whose last export to a collector that is down or never answers would otherwise wait out
/// its own timeouts and hold the process until SPEC 7's last resort.
struct GraceBoundedService: Service {
    let service: any Service
    let grace: Duration

    func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            group.addTask {
                // Ends with an error when cancelled: the service ended first.
                try await gracefulShutdown()
                try await Task.sleep(for: grace)
            }
            defer { group.cancelAll() }
            do {
                try await group.next()
            } catch is CancellationError {
                return
            }
        }
    }
}
