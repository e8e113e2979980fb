import PushgateKafka
import Synchronization
import Testing

/// A receiver counts the reports of its records, read in place on the poll thread.
private final class CountingReceiver: KafkaDeliveryReceiver, @unchecked Sendable {
    let reports = Mutex<[(partition: Int32, offset: Int64?, succeeded: Bool)]>([])

    override func received(_ delivery: KafkaDelivery) {
        reports.withLock { $0.append((delivery.partition, delivery.offset, delivery.succeeded)) }
    }
}

@Suite("Delivery reports through a receiver on the embedded broker")
struct KafkaDeliveryReceiverTests {
    @Test func everyRecordIsReportedOnceAndBatchesAreSettledAfterEachPoll() async throws {
        let broker = try EmbeddedBroker(topics: ["received"], partitions: 2, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let settled = Mutex(0)
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(bootstrapServers: broker.bootstrapServers),
            logger: KafkaTestSupport.logger, afterReports: { settled.withLock { $0 += 1 } })
        let receiver = CountingReceiver()
        for index in 0..<200 {
            let record = KafkaProducerMessage(
                topic: "received", partition: Int32(index % 2), key: nil, value: Array("\(index)".utf8),
                headers: [KafkaHeader(name: "n", value: Array("\(index)".utf8))])
            try await producer.produceWhenQueued(record, to: receiver)
        }
        try await producer.flush(timeout: .seconds(20))
        let reports = receiver.reports.withLock { $0 }
        #expect(reports.count == 200)
        #expect(reports.allSatisfy { $0.succeeded })
        for partition: Int32 in [0, 1] {
            let offsets = reports.filter { $0.partition == partition }.compactMap(\.offset).sorted()
            #expect(offsets == Array(0..<100), "partition \(partition): each record once, at its own offset")
        }
        let polls = settled.withLock { $0 }
        #expect(polls >= 1 && polls < 200, "reports are settled a poll at a time, not one by one (\(polls) polls)")
        await producer.shutdown()
    }

    @Test func aRefusedRecordCanBeReadBackWithoutItsContentInTheError() async throws {
        let broker = try EmbeddedBroker(topics: ["refused"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        #expect(broker.perform(controlCommand: "error Produce MSG_SIZE_TOO_LARGE 10") == "ok")
        let copies = Mutex<[KafkaProducerMessage]>([])
        let errors = Mutex<[KafkaError]>([])
        final class CopyingReceiver: KafkaDeliveryReceiver, @unchecked Sendable {
            let onFailure: (KafkaDelivery) -> Void
            init(_ onFailure: @escaping (KafkaDelivery) -> Void) { self.onFailure = onFailure }
            override func received(_ delivery: KafkaDelivery) { if !delivery.succeeded { onFailure(delivery) } }
        }
        let receiver = CopyingReceiver { delivery in
            copies.withLock { $0.append(delivery.record()) }
            if let error = delivery.error { errors.withLock { $0.append(error) } }
        }
        let producer = try KafkaTestSupport.producer(for: broker)
        let secret = Array("the notification text".utf8)
        let record = KafkaProducerMessage(
            topic: "refused", key: Array("k".utf8), value: secret, headers: [KafkaHeader(name: "h", value: [1, 2])])
        try producer.produce(record, to: receiver)
        try? await producer.flush(timeout: .seconds(20))
        await producer.shutdown()
        let copy = try #require(copies.withLock { $0.first })
        #expect(
            copy.topic == "refused" && copy.key == record.key && copy.value == secret && copy.headers == record.headers)
        let error = try #require(errors.withLock { $0.first })
        #expect(error.isRecordTooLarge)
        #expect(!error.description.contains("notification text"), "the error never carries the record")
    }
}
