import PushgateKafka
import Testing

/// Using a client after it is shut down gives an error, never a call on a destroyed librdkafka handle.
@Suite("Kafka clients after shutdown")
struct KafkaShutdownTests {
    @Test func consumerCallsAfterCloseFailCleanly() async throws {
        let broker = try EmbeddedBroker(topics: ["after.close"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let consumer = try KafkaTestSupport.consumer(for: broker, groupId: "after-close", topics: ["after.close"])
        await consumer.close()
        await #expect(throws: KafkaError.self) {
            try await consumer.commit([KafkaTopicPartitionOffset(topic: "after.close", partition: 0, offset: 1)])
        }
        #expect(consumer.fatalError == nil)
    }

    @Test func producerStateAfterShutdownIsSafeToRead() async throws {
        let broker = try EmbeddedBroker(topics: ["after.shutdown"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaTestSupport.producer(for: broker)
        _ = try await producer.send(KafkaProducerMessage(topic: "after.shutdown", key: nil, value: [1]))
        await producer.shutdown()
        #expect(producer.outstandingCount == 0)
        #expect(producer.fatalError == nil)
        await #expect(throws: KafkaError.self) { try await producer.flush(timeout: .seconds(1)) }
    }
}
