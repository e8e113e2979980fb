import PushgateKafka
import Testing

/// Reading in batches gives the same records in the same order, fewer hand-overs.
@Suite("Consumer batches on the embedded broker")
struct KafkaBatchTests {
    @Test func batchesKeepEveryRecordInPartitionOrder() async throws {
        let broker = try EmbeddedBroker(topics: ["batched"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaTestSupport.producer(for: broker)
        for index in 0..<300 {
            try await producer.produceWhenQueued(
                KafkaProducerMessage(topic: "batched", key: nil, value: Array("\(index)".utf8))
            ) { _ in }
        }
        try await producer.flush(timeout: .seconds(20))
        await producer.shutdown()
        let consumer = try KafkaTestSupport.consumer(for: broker, groupId: "batched", topics: ["batched"])
        try await Task.sleep(for: .seconds(5))  // let the group join and the buffer fill
        var values: [String] = []
        var largest = 0
        for try await batch in consumer.messages.batches(maxCount: 64) {
            #expect(!batch.isEmpty && batch.count <= 64)
            largest = max(largest, batch.count)
            values += batch.map { String(decoding: $0.value, as: UTF8.self) }
            if values.count >= 300 { break }
        }
        await consumer.close()
        #expect(values == (0..<300).map(String.init))
        #expect(largest > 1, "records buffered while the task was away come as one batch")
    }
}
