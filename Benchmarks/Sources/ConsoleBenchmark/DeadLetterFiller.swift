import BenchProcess
import Foundation
import Logging
import PushgateKafka
import Synchronization

/// Writes dead letters as pushgate's worker writes them (the headers of SPEC section 6, a payload of
/// about `valueBytes`), with a mix of codes, stages, formats, sources and keys, and waits for every
/// acknowledgement.
struct DeadLetterFiller {
    /// The mix: (code, stage, format) cycles through these.
    static let kinds: [(code: String, stage: String, format: String?)] = [
        ("unknown_field", "validate", nil), ("invalid_url", "validate", nil), ("invalid_json", "parse", nil),
        ("missing_field", "validate", nil), ("wrong_type", "validate", nil), ("too_long", "emit", "apns"),
        ("unsupported_action", "emit", "fcm"), ("too_many_items", "emit", "adobe-carousel"),
    ]
    static let keys = 10_000
    static let sourcePartitions: Int32 = 32

    let topic: String
    let inputTopic: String
    let letters: Int
    let valueBytes: Int
    /// The topic's partitions.
    let partitions: Int
    /// The time of the first letter (ms); each next one is 1 ms later.
    let firstTimestampMs: Int64

    /// The letter number `number`: its key, headers and value.
    func letter(_ number: Int) -> KafkaProducerMessage {
        let kind = Self.kinds[number % Self.kinds.count]
        let sourcePartition = Int32(number % Int(Self.sourcePartitions))
        let sourceOffset = number / Int(Self.sourcePartitions)
        let path = kind.stage == "parse" ? "" : "/message/extra"
        let message = kind.stage == "parse" ? "unexpected end of input at byte 812" : "is not allowed here"
        var headers = [
            KafkaHeader(name: "trace-id", value: Array("t-\(number)".utf8)),
            KafkaHeader(name: "__connect.errors.topic", value: Array(inputTopic.utf8)),
            KafkaHeader(name: "__connect.errors.partition", value: Array(String(sourcePartition).utf8)),
            KafkaHeader(name: "__connect.errors.offset", value: Array(String(sourceOffset).utf8)),
            KafkaHeader(name: "__connect.errors.stage", value: Array(kind.stage.utf8)),
            KafkaHeader(name: "__connect.errors.exception.class.name", value: Array(kind.code.utf8)),
            KafkaHeader(name: "__connect.errors.exception.message", value: Array("\(path): \(message)".utf8)),
            KafkaHeader(name: "pushgate-id", value: Array("l-\(number)".utf8)),
        ]
        if let format = kind.format { headers.append(KafkaHeader(name: "pushgate-format", value: Array(format.utf8))) }
        var errors = #"[{"code":"\#(kind.code)","path":"\#(path)","message":"\#(message)"}"#
        if number % 5 == 0 {
            errors += #",{"code":"unknown_field","path":"/x\#(number % 7)","message":"unknown field"}"#
        }
        headers.append(KafkaHeader(name: "pushgate-errors", value: Array((errors + "]").utf8)))
        return KafkaProducerMessage(
            topic: topic, key: Array("user-\(number % Self.keys)".utf8), value: value(number), headers: headers)
    }

    /// A payload of about `valueBytes`, with text a search can find (`needle-N` in every 1,000th).
    private func value(_ number: Int) -> [UInt8] {
        var text =
            #"{"id":"l-\#(number)","message":{"title":"Sale \#(number % 97)","body":"Today only","#
            + (number % 1_000 == 0 ? #""tag":"needle-\#(number / 1_000)","# : "") + #""extra":""#
        let filler = "lorem ipsum dolor sit amet "
        while text.utf8.count < valueBytes - 3 { text += filler }
        return Array(text.utf8.prefix(valueBytes - 3)) + Array(#""}}"#.utf8)
    }

    /// Writes every letter, `inFlight` at most unacknowledged; returns the seconds it took.
    func fill(servers: String, logger: Logger) async throws -> Double {
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                bootstrapServers: servers,
                properties: [
                    "linger.ms": "20", "batch.size": "1000000", "queue.buffering.max.messages": "200000",
                    "queue.buffering.max.kbytes": "262144", "enable.idempotence": "false", "acks": "1",
                ]),
            logger: logger)
        let receiver = Acknowledgements()
        let start = ContinuousClock.now
        // Partition by partition: librdkafka's mock cluster answers a fetch with one record batch per
        // partition, so a topic written in small batches (records spread over every partition at once) is
        // read a few records per partition per round trip, and the read rate measures the batches. Each
        // partition's letters are written together, in batches of up to a megabyte, as a busy topic has.
        for partition in 0..<partitions {
            for number in stride(from: partition, to: letters, by: partitions) {
                var message = letter(number)
                message.partition = Int32(partition)
                message.timestampMs = firstTimestampMs + Int64(number)
                try await producer.produceWhenQueued(message, to: receiver)
            }
        }
        try await producer.flush(timeout: .seconds(600))
        await producer.shutdown()
        if let failure = receiver.failure { throw BenchmarkError("writing the dead letters failed: \(failure)") }
        return (ContinuousClock.now - start).seconds
    }
}

/// Counts acknowledgements and keeps the first failure.
final class Acknowledgements: KafkaDeliveryReceiver, @unchecked Sendable {
    private let state = Mutex<(count: Int, failure: String?)>((0, nil))

    var failure: String? { state.withLock { $0.failure } }

    override func received(_ delivery: KafkaDelivery) {
        let error = delivery.error.map { "\($0)" }
        state.withLock { state in
            state.count += 1
            if state.failure == nil, let error { state.failure = error }
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
