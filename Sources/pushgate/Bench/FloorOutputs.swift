import Kafka
import PushTranslation

/// What the `floor` contender writes: the worker's Kafka traffic with translation free. The worker's
/// own outputs of the first ``count`` bench inputs are translated once, at start; the input with key
/// `user-N` is answered with those of input `N % count`, as they are (under that input's key `user-K`,
/// not copied for each input). Same records per input (1.95 on the mix), same value sizes, same
/// headers, same topics as the worker's, keys spread over the partitions alike: what is left is what
/// writing them costs, librdkafka's share of the worker and the broker's. Roughly: the translations at
/// start are counted too (about 0.1 µs per input over 100,000 inputs), and past input 2,000 the
/// worker's values hold longer numbers (a few bytes).
struct FloorOutputs: Sendable {
    /// How many inputs are translated at start: a whole number of the mix's periods, so that the kinds
    /// of payload come in the same shares as in the input.
    static let count = 20 * BenchInput.period

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
