import Kafka
import PushModel
import PushTranslation

/// The input records of `pushgate bench pipeline`, one per index: a payload of the mix, the key
/// `user-N` and one `trace-id` header (the payload is the one `pushgate bench mix` prints as line N + 1).
/// The benchmark writes them; the `floor` contender reads the index back from the key.
enum BenchInput {
    private static let schedule = PayloadMix.schedule()

    /// After how many indices the kinds of payload repeat.
    static var period: Int { schedule.count }

    /// The record of `index`, written to `topic`.
    static func record(_ index: Int, topic: String) -> KafkaProducerMessage {
        let value = Array(PayloadMix.payload(PayloadMix.kind(at: index, in: schedule), index).utf8)
        let header = KafkaHeader(name: "trace-id", value: Array("t\(index)".utf8))
        return KafkaProducerMessage(topic: topic, key: Array("user-\(index)".utf8), value: value, headers: [header])
    }

    /// The translator's view of `record`, as if read at `offset`.
    static func inputRecord(_ record: KafkaProducerMessage, offset: Int64) -> InputRecord {
        InputRecord(
            topic: record.topic, partition: 0, offset: offset, key: record.key, value: record.value,
            headers: record.headers.map { RecordHeader(name: $0.name, bytes: $0.value) }, timestampMs: 0)
    }

    /// The index in a key `user-N`; `nil` for any other key (and for N of more than 18 digits).
    static func index(ofKey key: [UInt8]?) -> Int? {
        guard let key, key.count > 5, key.count <= 5 + 18, key.starts(with: "user-".utf8) else { return nil }
        var index = 0
        for byte in key.dropFirst(5) {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            index = index * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return index
    }
}
