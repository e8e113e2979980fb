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
    ///   - controlLines: commands, one per line; when given, the service also stops at their end.
    ///   - answer: receives `ok` or `error: ...` for each command.
    public init(
        broker: EmbeddedBroker, controlLines: AsyncStream<String>? = nil,
        answer: @escaping @Sendable (String) -> Void = StandardStreams.writeLine
    ) {
        self.broker = broker
        self.controlLines = controlLines
        self.answer = answer
    }

    /// Serves until graceful shutdown or the end of the control lines, then shuts the broker down.
    public func run() async throws {
        defer { broker.shutdown() }
        if let controlLines {
            for await line in controlLines.cancelOnGracefulShutdown() {
                answer(broker.perform(controlCommand: line))
            }
        } else {
            try? await gracefulShutdown()
        }
    }
}
