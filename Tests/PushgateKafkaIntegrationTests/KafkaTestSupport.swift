import Logging
import PushgateKafka
import PushgateTestSupport

/// Shared helpers for tests against the embedded broker.
enum KafkaTestSupport {
    static let logger: Logger = {
        var logger = Logger(label: "kafka-tests")
        logger.logLevel = .warning
        return logger
    }()

    /// Consumer properties that keep group joins quick on the mock cluster.
    static let quickGroup = BrokerTesting.quickGroup

    /// A producer for `broker` with the binding's defaults.
    static func producer(for broker: EmbeddedBroker) throws -> KafkaProducer {
        try KafkaProducer(
            configuration: KafkaProducerConfiguration(bootstrapServers: broker.bootstrapServers), logger: logger)
    }

    /// A consumer of `topics` for `broker` in group `groupId`, joining quickly (``quickGroup``).
    static func consumer(for broker: EmbeddedBroker, groupId: String, topics: [String]) throws -> KafkaConsumer {
        try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                bootstrapServers: broker.bootstrapServers, groupId: groupId, topics: topics, properties: quickGroup),
            logger: logger)
    }

    /// Reads `count` records from `consumer`, or fails after `seconds`.
    static func read(_ count: Int, from consumer: KafkaConsumer, seconds: Int = 30) async throws
        -> [KafkaConsumerMessage]
    {
        try await withThrowingTaskGroup(of: [KafkaConsumerMessage].self) { group in
            group.addTask {
                var result: [KafkaConsumerMessage] = []
                for try await message in consumer.messages {
                    result.append(message)
                    if result.count == count { break }
                }
                return result
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw TimedOut(what: "\(count) records are read")
            }
            let first = try await group.next() ?? []
            group.cancelAll()
            return first
        }
    }
}
