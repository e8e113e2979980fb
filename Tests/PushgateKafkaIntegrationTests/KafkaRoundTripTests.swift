import PushgateKafka
import Testing

@Suite("Kafka producer and consumer against the embedded broker", .timeLimit(.minutes(2)))
struct KafkaRoundTripTests {
    @Test func recordsRoundTripWithKeysHeadersAndOrder() async throws {
        let broker = try EmbeddedBroker(topics: ["round.trip"], partitions: 3, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaTestSupport.producer(for: broker)
        var sent: [KafkaProducerMessage] = []
        for index in 0..<60 {
            let message = KafkaProducerMessage(
                topic: "round.trip", key: index % 7 == 0 ? nil : Array("key-\(index % 5)".utf8),
                value: Array("value-\(index)".utf8),
                headers: [
                    KafkaHeader(name: "n", value: Array("\(index)".utf8)),
                    KafkaHeader(name: "empty", value: []),
                    KafkaHeader(name: "null", value: nil),
                    KafkaHeader(name: "n", value: [0, 255]),
                ])
            sent.append(message)
            let report = try await producer.send(message)
            #expect(report.topic == "round.trip")
            #expect((0..<3).contains(report.partition))
        }
        await producer.shutdown()

        let consumer = try KafkaTestSupport.consumer(for: broker, groupId: "round-trip", topics: ["round.trip"])
        let received = try await KafkaTestSupport.read(sent.count, from: consumer)
        await consumer.close()

        #expect(received.count == sent.count)
        let byValue = Dictionary(uniqueKeysWithValues: received.map { ($0.value, $0) })
        for message in sent {
            let got = try #require(byValue[message.value])
            #expect(got.key == message.key)
            #expect(got.headers == message.headers)
            #expect(got.timestampMs != nil)
        }
        // Same key, same partition, in production order.
        for key in Set(sent.compactMap(\.key)) {
            let order = received.filter { $0.key == key }
            #expect(Set(order.map(\.partition)).count == 1)
            #expect(order.map(\.value) == sent.filter { $0.key == key }.map(\.value))
        }
    }

    @Test func producerDeliversDespiteInjectedProduceErrors() async throws {
        let broker = try EmbeddedBroker(topics: ["faulty"], partitions: 2, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        #expect(broker.perform(controlCommand: "error Produce NOT_LEADER_FOR_PARTITION 3") == "ok")
        let producer = try KafkaTestSupport.producer(for: broker)
        for index in 0..<5 {
            _ = try await producer.send(KafkaProducerMessage(topic: "faulty", key: [1], value: [UInt8(index)]))
        }
        await producer.shutdown()
        let consumer = try KafkaTestSupport.consumer(for: broker, groupId: "faulty", topics: ["faulty"])
        let received = try await KafkaTestSupport.read(5, from: consumer)
        await consumer.close()
        #expect(received.map(\.value) == (0..<5).map { [UInt8($0)] })
    }

    /// A null value (a tombstone) is written and read as null, an empty value as empty.
    @Test func aNullValueStaysNullAndAnEmptyOneEmpty() async throws {
        let broker = try EmbeddedBroker(topics: ["tombstones"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaTestSupport.producer(for: broker)
        _ = try await producer.send(KafkaProducerMessage(topic: "tombstones", key: [1], value: [], valueIsNull: true))
        _ = try await producer.send(KafkaProducerMessage(topic: "tombstones", key: [2], value: []))
        await producer.shutdown()
        let consumer = try KafkaTestSupport.consumer(for: broker, groupId: "tombstones", topics: ["tombstones"])
        let received = try await KafkaTestSupport.read(2, from: consumer)
        await consumer.close()
        #expect(received.map(\.valueIsNull) == [true, false])
        #expect(received.allSatisfy { $0.value.isEmpty })
    }

    @Test func sendingAfterShutdownFails() async throws {
        let broker = try EmbeddedBroker(topics: ["closed"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaTestSupport.producer(for: broker)
        await producer.shutdown()
        await #expect(throws: KafkaError.self) {
            try await producer.send(KafkaProducerMessage(topic: "closed", key: nil, value: [1]))
        }
    }

    @Test func invalidPropertyIsReportedNotFatal() {
        #expect(throws: KafkaError.self) {
            try KafkaProducer(
                configuration: KafkaProducerConfiguration(
                    bootstrapServers: "127.0.0.1:1", properties: ["no.such.property": "1"]),
                logger: KafkaTestSupport.logger)
        }
    }
}
