import PushgateKafka
import Synchronization
import Testing

@Suite("A consumer's in-place record handler and the listed watermarks", .timeLimit(.minutes(2)))
struct KafkaRecordHandlerTests {
    @Test func everyRecordReachesTheHandlerInPlaceAndTheListedWatermarksAreThePerPartitionOnes() async throws {
        let broker = try EmbeddedBroker(topics: ["in.place"], partitions: 3, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaTestSupport.producer(for: broker)
        for index in 0..<30 {
            _ = try await producer.send(
                KafkaProducerMessage(
                    topic: "in.place", key: index % 4 == 0 ? nil : Array("k\(index)".utf8),
                    value: Array("value-\(index)".utf8),
                    headers: [
                        KafkaHeader(name: "n", value: Array("\(index)".utf8)),
                        KafkaHeader(name: "n", value: Array("second".utf8)),
                        KafkaHeader(name: "null", value: nil),
                    ]))
        }
        await producer.shutdown()

        let seen = Mutex<[String: (key: [UInt8]?, n: String?, null: Bool, count: Int, copied: KafkaConsumerMessage)]>(
            [:])
        let consumer = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                bootstrapServers: broker.bootstrapServers, groupId: "in-place", topics: []),
            logger: KafkaTestSupport.logger,
            recordHandler: { record in
                let value = record.withValue { String(decoding: $0, as: UTF8.self) }
                let key = record.withKey { $0.map { Array($0) } }
                let n = record.withHeader("n") { $0.map { String(decoding: $0, as: UTF8.self) } }
                let null = record.withHeader("null") { $0 == nil }
                let copy = record.copy()
                seen.withLock { $0[value] = (key, n, null, record.valueCount, copy) }
            })
        let listed = try await consumer.listedWatermarks(topic: "in.place", timeoutMs: 5_000)
        let asked = try await consumer.watermarks(topic: "in.place", timeoutMs: 5_000)
        #expect(listed == asked)
        #expect(listed.values.reduce(0) { $0 + $1.high - $1.low } == 30)
        try await consumer.assign(
            listed.map { KafkaTopicPartitionOffset(topic: "in.place", partition: $0.key, offset: $0.value.low) })
        let deadline = ContinuousClock.now + .seconds(30)
        while seen.withLock({ $0.count }) < 30 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        await consumer.close()
        let records = seen.withLock { $0 }
        #expect(records.count == 30)
        for index in 0..<30 {
            let record = try #require(records["value-\(index)"])
            #expect(record.key == (index % 4 == 0 ? nil : Array("k\(index)".utf8)))
            #expect(record.n == "\(index)", "the first header of the name")
            #expect(record.null)
            #expect(record.count == "value-\(index)".utf8.count)
            #expect(record.copied.headers.count == 3)
            #expect(record.copied.value == Array("value-\(index)".utf8))
        }
    }
}
