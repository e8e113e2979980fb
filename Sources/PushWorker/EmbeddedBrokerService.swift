import Logging
import PushgateKafka
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
    /// Each command and the shutdown run on a thread of their own: librdkafka's mock cluster calls block
    /// (a command waits for the broker thread; shutdown joins it), and the cooperative pool must not.
    public func run() async throws {
        let broker = self.broker
        if let controlLines {
            for await line in controlLines.cancelOnGracefulShutdown() {
                let reply =
                    (try? await DedicatedThread.run(name: "embedded-broker-control") {
                        broker.perform(controlCommand: line)
                    }) ?? "error: the command could not be run"
                answer(reply)
            }
        }
        try? await gracefulShutdown()
        _ = try? await DedicatedThread.run(name: "embedded-broker-shutdown") { broker.shutdown() }
    }
}
