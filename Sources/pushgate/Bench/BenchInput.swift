import Kafka
import PushModel
import PushTranslation

/// The input records of `pushgate bench pipeline`, one per index: a payload of the mix, the key
/// `user-N` and one `trace-id` header. The benchmark writes them; the `floor` contender reads the index
/// back from the key.
enum BenchInput {
    private static let schedule = PayloadMix.Kind.allCases.flatMap { Array(repeating: $0, count: $0.share) }

    /// The record of `index`, written to `topic`.
    static func record(_ index: Int, topic: String) -> KafkaProducerMessage {
        let value = Array(PayloadMix.payload(schedule[(index &* 37) % schedule.count], index).utf8)
        let header = KafkaHeader(name: "trace-id", value: Array("t\(index)".utf8))
        return KafkaProducerMessage(topic: topic, key: Array("user-\(index)".utf8), value: value, headers: [header])
    }

    /// The translator's view of `record`, as if read at `offset`.
    static func inputRecord(_ record: KafkaProducerMessage, offset: Int64) -> InputRecord {
        InputRecord(
            topic: record.topic, partition: 0, offset: offset, key: record.key, value: record.value,
            headers: record.headers.map { RecordHeader(name: $0.name, bytes: $0.value) }, timestampMs: 0)
    }

    /// The index in a key `user-N`; `nil` for any other key.
    static func index(ofKey key: [UInt8]?) -> Int? {
        guard let key, key.count > 5, key.count <= 24, key.starts(with: "user-".utf8) else { return nil }
        var index = 0
        for byte in key.dropFirst(5) {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            index = index * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return index
    }
}

/// What the `floor` contender writes: the worker's Kafka traffic with translation free. The worker's
/// own outputs of the first ``count`` bench inputs are translated once, at start; the input with key
/// `user-N` is answered with those of input `N % count`, as they are (under that input's key `user-K`,
/// not copied for each input). Same records per input (1.95 on the mix), same value sizes, same
/// headers, same topics as the worker's, keys spread over the partitions alike: what is left is what
/// writing them costs, librdkafka's share of the worker and the broker's.
struct FloorOutputs: Sendable {
    /// How many inputs are translated at start.
    static let count = 2000

    private let outputs: [[KafkaProducerMessage]]

    /// Translates the first ``count`` bench inputs with `configuration`.
    init(configuration: TranslatorConfiguration, inputTopic: String) {
        let translator = Translator(configuration: configuration)
        outputs = (0..<Self.count).map { index in
            let record = BenchInput.record(index, topic: inputTopic)
            return translator.translate(BenchInput.inputRecord(record, offset: Int64(index)), readAtMs: 0)
                .map(KafkaProducerMessage.init)
        }
    }

    /// The records to write for an input with `key` (input 0's for a key not `user-N`).
    func outputs(forKey key: [UInt8]?) -> [KafkaProducerMessage] {
        outputs[(BenchInput.index(ofKey: key) ?? 0) % Self.count]
    }

    /// How many records the contender writes for the bench inputs `0..<records`.
    func expectedOutputs(records: Int) -> Int {
        (0..<records).reduce(0) { $0 + outputs[$1 % Self.count].count }
    }
}
