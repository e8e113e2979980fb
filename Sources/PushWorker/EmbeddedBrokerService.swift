import Kafka
import Logging
import ServiceLifecycle

/// Serves an ``EmbeddedBroker`` until graceful shutdown (SIGINT, SIGTERM), optionally answering fault
/// injection commands (``EmbeddedBroker/controlCommandHelp``) read from a line stream.
public struct EmbeddedBrokerService: Service {
    private let broker: EmbeddedBroker
    private let controlLines: AsyncStream<String>?
    private let answer: @Sendable (String) -> Void

    /// Creates the service.
    /// - Parameters:
    ///   - controlLines: commands, one per line. Their end does not stop the broker: it serves until
    ///     graceful shutdown (SIGINT, SIGTERM), as `pushgate broker` promises.
    ///   - answer: receives `ok` or `error: ...` for each command.
    public init(
        broker: EmbeddedBroker, controlLines: AsyncStream<String>? = nil,
        answer: @escaping @Sendable (String) -> Void = StandardStreams.writeLine
    ) {
        self.broker = broker
        self.controlLines = controlLines
        self.answer = answer
    }

    /// Serves until graceful shutdown, answering control lines as they come, then shuts the broker down.
    public func run() async throws {
        defer { broker.shutdown() }
        if let controlLines {
            for await line in controlLines.cancelOnGracefulShutdown() {
                answer(broker.perform(controlCommand: line))
            }
        }
        try? await gracefulShutdown()
    }
}
