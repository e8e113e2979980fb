import Testing

@testable import PushgateKafka

/// librdkafka 2.0.2 stops fetching on a full queue and looks again only when its broker thread wakes
/// up; the consumer wakes it once the application has drained the queue (``FetcherWakeUp``), by
/// seeking to where it stands, so nothing may be skipped or read twice.
@Suite("Waking a stopped fetcher on the embedded broker")
struct FetcherWakeUpTests {
    @Test func aDrainedFullQueueWakesTheFetcherAndEveryRecordIsReadOnceInOrder() async throws {
        let partitions = 4
        let perPartition = 3000
        let broker = try EmbeddedBroker(topics: ["woken"], partitions: partitions, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaTestSupport.producer(for: broker)
        let padding = String(repeating: "x", count: 200)
        for index in 0..<perPartition {
            for partition in 0..<partitions {
                try await producer.produceWhenQueued(
                    KafkaProducerMessage(
                        topic: "woken", partition: Int32(partition), key: nil, value: Array("\(index) \(padding)".utf8))
                ) { _ in }
            }
        }
        try await producer.flush(timeout: .seconds(30))
        await producer.shutdown()

        // A 64 KiB queue (about 280 records) fills long before the application starts reading.
        let consumer = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                bootstrapServers: broker.bootstrapServers, groupId: "woken", topics: ["woken"],
                properties: KafkaTestSupport.quickGroup.merging(["queued.max.messages.kbytes": "64"]) { $1 }),
            logger: KafkaTestSupport.logger)
        try await Task.sleep(for: .seconds(5))  // the group join, then a full queue and a stopped fetcher
        var next = [Int32: Int](uniqueKeysWithValues: (0..<Int32(partitions)).map { ($0, 0) })
        var outOfOrder: [String] = []
        var read = 0
        for try await batch in consumer.messages.batches(maxCount: 512) {
            for message in batch {
                let index = Int(String(decoding: message.value.prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self)) ?? -1
                if index != next[message.partition] {
                    outOfOrder.append(
                        "partition \(message.partition): \(index) after \((next[message.partition] ?? 0) - 1)")
                }
                next[message.partition] = index + 1
                read += 1
            }
            if read >= partitions * perPartition { break }
        }
        let wakeUps = try await consumer.fetcherWakeUps
        await consumer.close()
        #expect(read == partitions * perPartition)
        #expect(outOfOrder.isEmpty, "records skipped or read twice: \(outOfOrder.prefix(5))")
        #expect(wakeUps >= 1, "the fetcher stopped on the full queue and was woken")
    }
}
