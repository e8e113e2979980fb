import PushModel
import PushgateKafka
import Testing

@testable import PushDelivery

/// A record read from a delivered topic (SPEC 10.8): its format from `pushgate-format`, else its topic.
struct DeliveredRecordReadingTests {
    let configuration = DeliveryConfiguration(bootstrapServers: "", topics: [.fbCard: "cards"])

    private func read(topic: String, key: [UInt8]?, headers: [(String, String)]) -> DeliveredRecord? {
        DeliveredRecord(
            KafkaConsumerMessage(
                topic: topic, partition: 3, offset: 9, key: key, value: Array("{}".utf8),
                headers: headers.map { KafkaHeader(name: $0.0, value: Array($0.1.utf8)) }, timestampMs: 1234),
            formatOfTopic: configuration.format(ofTopic:))
    }

    @Test func theFormatHeaderWinsOverTheTopic() throws {
        let record = try #require(
            read(topic: "push.apns", key: Array("user-1".utf8), headers: [("pushgate-format", "adobe-carousel")]))
        #expect(record.format == .adobeCarousel && record.key == "user-1" && record.timestampMilliseconds == 1234)
        #expect(record.coordinates == "push.apns:3:9")
    }

    @Test func withoutTheHeaderTheTopicNamesTheFormat() {
        #expect(read(topic: "cards", key: nil, headers: [])?.format == .fbCard)
        #expect(read(topic: "push.fb.card", key: nil, headers: [])?.format == nil)
        #expect(read(topic: "elsewhere", key: nil, headers: [("pushgate-format", "nonsense")]) == nil)
    }

    @Test func aKeyThatIsNotUTF8HasNoAudience() {
        #expect(read(topic: "push.apns", key: [0xFF, 0xFE], headers: [])?.key == nil)
    }
}
