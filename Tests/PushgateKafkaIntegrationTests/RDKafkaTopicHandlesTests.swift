import CRdKafka
import Testing

@testable import PushgateKafka

@Suite("A producer keeps one librdkafka topic object per topic")
struct RDKafkaTopicHandlesTests {
    private func producerClient() throws -> RDKafkaClient {
        try RDKafkaClient.make(
            kind: .producer, properties: [("bootstrap.servers", "127.0.0.1:9")],
            callbacks: RDKafkaCallbacks(logger: KafkaTestSupport.logger, statisticsHandler: nil))
    }

    @Test func aTopicGetsOneObjectMadeOnFirstUse() throws {
        let client = try producerClient()
        defer { client.destroy() }
        let handles = RDKafkaTopicHandles()
        defer { handles.destroyAll() }
        let first = try #require(handles.handle(for: "push.apns", in: client.handle))
        let other = try #require(handles.handle(for: "push.fcm", in: client.handle))
        #expect(handles.handle(for: "push.apns", in: client.handle) == first)
        let sameName = String("push.apns".reversed().reversed())  // equal, in storage of its own
        #expect(handles.handle(for: sameName, in: client.handle) == first, "found by name, not by storage")
        #expect(other != first)
        #expect(String(cString: rd_kafka_topic_name(first)) == "push.apns")
        #expect(String(cString: rd_kafka_topic_name(other)) == "push.fcm")
    }

    @Test func pastTheLimitTopicsAreProducedByName() throws {
        let client = try producerClient()
        defer { client.destroy() }
        let handles = RDKafkaTopicHandles()
        defer { handles.destroyAll() }
        for index in 0..<RDKafkaTopicHandles.maxKept {
            #expect(handles.handle(for: "topic-\(index)", in: client.handle) != nil)
        }
        #expect(handles.handle(for: "one-too-many", in: client.handle) == nil)
        #expect(handles.handle(for: "topic-0", in: client.handle) != nil, "kept objects stay")
    }

    @Test func noObjectIsMadeOnceTheyAreGivenBack() throws {
        let client = try producerClient()
        defer { client.destroy() }
        let handles = RDKafkaTopicHandles()
        #expect(handles.handle(for: "push.apns", in: client.handle) != nil)
        handles.destroyAll()
        #expect(handles.handle(for: "push.apns", in: client.handle) == nil)
        #expect(handles.handle(for: "push.fcm", in: client.handle) == nil)
        handles.destroyAll()  // a second call does nothing
    }

    @Test func anInvalidNameGetsNoObject() throws {
        let client = try producerClient()
        defer { client.destroy() }
        let handles = RDKafkaTopicHandles()
        defer { handles.destroyAll() }
        #expect(handles.handle(for: String(repeating: "x", count: 600), in: client.handle) == nil)
    }

    /// More topics than objects are kept: the rest are produced by name, and every record arrives.
    @Test func recordsOfManyTopicsAreAllWritten() async throws {
        let count = RDKafkaTopicHandles.maxKept + 3
        let topics = (0..<count).map { "many.\($0)" }
        let broker = try EmbeddedBroker(topics: topics, partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaTestSupport.producer(for: broker)
        for topic in topics {
            let report = try await producer.send(KafkaProducerMessage(topic: topic, key: nil, value: Array(topic.utf8)))
            #expect(report.topic == topic)
        }
        await producer.shutdown()
    }
}
