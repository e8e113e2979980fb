import PushgateKafka
import Testing

@Suite("A record the broker refuses", .timeLimit(.minutes(2)))
struct KafkaRefusedRecordTests {
    /// The delivery error names the broker's code and never carries the record (librdkafka's
    /// `rd_kafka_message_errstr` returns a failed record's payload as its error text).
    @Test func aRefusedRecordFailsWithItsCodeAndWithoutItsContent() async throws {
        let broker = try EmbeddedBroker(topics: ["small"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        #expect(broker.perform(controlCommand: "error Produce MSG_SIZE_TOO_LARGE 1") == "ok")
        let producer = try KafkaTestSupport.producer(for: broker)
        let secret = Array(#"{"aps":{"alert":"a private notification text"}}"#.utf8)
        do {
            _ = try await producer.send(KafkaProducerMessage(topic: "small", key: nil, value: secret))
            Issue.record("the refused record was reported as delivered")
        } catch {
            #expect(error.isRecordTooLarge)
            #expect(error.codeName == "MSG_SIZE_TOO_LARGE")
            #expect(!error.description.contains("private notification"), "\(error.description)")
        }
        await producer.shutdown()
    }
}
