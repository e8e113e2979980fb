import PushgateKafka
import Synchronization
import Testing

/// A full local producer queue slows the producer down instead of failing it.
@Suite("Producer backpressure on the embedded broker")
struct KafkaBackpressureTests {
    @Test func fullQueueWaitsForRoomInsteadOfFailing() async throws {
        let broker = try EmbeddedBroker(topics: ["small.queue"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                bootstrapServers: broker.bootstrapServers,
                properties: ["queue.buffering.max.messages": "5", "linger.ms": "5"]),
            logger: KafkaTestSupport.logger)
        let delivered = Mutex(0)
        var sawQueueFull = false
        do {
            for index in 0..<50 {
                // Headers too: a refused record's header list stays the producer's to free (not librdkafka's).
                let headers = [
                    KafkaHeader(name: "n", value: Array("\(index)".utf8)), KafkaHeader(name: "null", value: nil),
                    KafkaHeader(name: "empty", value: []),
                ]
                try producer.produce(
                    KafkaProducerMessage(topic: "small.queue", key: nil, value: [UInt8(index)], headers: headers)
                ) { _ in }
            }
        } catch {
            sawQueueFull = error.isQueueFull
        }
        #expect(sawQueueFull, "a 5-message queue must refuse 50 records handed over at once")
        for index in 0..<200 {
            try await producer.produceWhenQueued(
                KafkaProducerMessage(topic: "small.queue", key: nil, value: [UInt8(index % 256)])
            ) {
                if case .success = $0 { delivered.withLock { $0 += 1 } }
            }
        }
        try await producer.flush(timeout: .seconds(20))
        #expect(delivered.withLock { $0 } == 200)
        await producer.shutdown()
    }
}
