import Logging
import PushModel
import PushWorker
import PushgateKafka

extension PushWorkerConfiguration {
    /// Starts an embedded broker with the configuration's topics (input, every output, dead letters), off
    /// the cooperative pool, and prints its address as the first line of standard output: for `run` and
    /// `console` without bootstrap servers.
    func startEmbeddedBroker(partitions: Int, logger: Logger) async throws -> EmbeddedBroker {
        let topics =
            [inputTopic] + OutputFormat.allCases.map { translator.topic(for: $0) } + [translator.deadLetterTopic]
        let broker = try await DedicatedThread.run(name: "embedded-broker-setup") {
            try EmbeddedBroker(topics: topics, partitions: partitions, logger: logger)
        }
        StandardStreams.writeLine(broker.bootstrapServers)
        return broker
    }
}
