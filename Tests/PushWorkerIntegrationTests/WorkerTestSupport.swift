import Foundation
import Logging
import PushModel
import PushTranslation
import PushWorker
import PushgateKafka
import PushgateTestSupport

/// Inputs, expectations and comparisons for the worker's integration tests.
enum WorkerTestSupport {
    static let logger: Logger = {
        var logger = Logger(label: "worker-tests")
        logger.logLevel = .error
        return logger
    }()

    static let quickGroup = BrokerTesting.quickGroup
    static let producerFaultSafe = BrokerTesting.producerFaultSafe

    /// Every topic of SPEC section 1, default names.
    static let allTopics =
        [TranslatorConfiguration.defaultInputTopic] + OutputFormat.allCases.map(\.defaultTopic)
        + [TranslatorConfiguration.defaultDeadLetterTopic]
    static let outputTopics = Array(allTopics.dropFirst())

    /// Payloads: the golden inputs of PushTranslationTests when present, and a few of our own.
    static func payloads() -> [[UInt8]] {
        var result: [[UInt8]] = [
            Array(#"{"message":{"title":"T","body":"B"},"data":{"n":1}}"#.utf8),
            Array(#"{"platform":{"ios":false},"message":{"body":"android only"}}"#.utf8),
            Array(
                #"{"message":{"title":"T","body":"x"},"carousel":{"items":[{"image":"https://i.example/1.png"},{"image":"https://i.example/2.png"}]}}"#
                    .utf8),
            Array(#"{"message":{"body":"B"},"card":{"size":"small"}}"#.utf8),
            Array(#"{"message":{"body":"B"},"bogus":true}"#.utf8),
            Array("not json".utf8),
            [0xFF, 0xFE, 0x7B],
            Array("{}".utf8),
        ]
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PushTranslationTests/Golden")
        if let names = try? FileManager.default.contentsOfDirectory(atPath: golden.path) {
            for name in names.sorted() where name.hasSuffix(".input.json") {
                if let data = FileManager.default.contents(atPath: golden.appendingPathComponent(name).path) {
                    result.append(Array(data))
                }
            }
        }
        return result
    }

    /// `count` input records cycling through the payloads, with 17 keys (and some null keys) and headers
    /// to forward or drop.
    static func inputs(count: Int) -> [PythonKafkaClient.Record] {
        let payloads = payloads()
        return (0..<count).map { index in
            let key: [UInt8]? = index % 11 == 0 ? nil : Array("user-\(index % 17)".utf8)
            var headers: [(String, [UInt8]?)] = []
            if index % 3 == 0 {
                headers = [
                    ("trace-id", Array("t\(index)".utf8)), ("pushgate-id", Array("drop".utf8)),
                    ("APNS-priority", Array("1".utf8)), ("raw", nil), ("__connect.errors.x", [1]),
                ]
            }
            // Now and then a tombstone (a null value): its dead letter keeps the null.
            let value = index % 97 == 5 ? nil : payloads[index % payloads.count]
            return PythonKafkaClient.Record(key: key, value: value, headers: headers)
        }
    }

    /// What the worker must write, as comparable values.
    struct Output: Hashable, CustomStringConvertible {
        let topic: String
        let key: [UInt8]?
        let value: [UInt8]
        var valueIsNull = false
        let headers: [RecordHeader]

        var description: String {
            "\(topic) key=\(key.map { String(decoding: $0, as: UTF8.self) } ?? "null") \(valueIsNull ? "(null)" : String(decoding: value.prefix(80), as: UTF8.self)) \(headers.map(\.name))"
        }

        var source: String? {
            headers.first { $0.name == "pushgate-source" || $0.name == "__connect.errors.offset" }
                .flatMap { $0.value }.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    static func output(_ record: PythonKafkaClient.Record) -> Output {
        Output(
            topic: record.topic ?? "", key: record.keyBytes, value: record.valueBytes, valueIsNull: record.valueIsNull,
            headers: record.headerPairs.map { RecordHeader(name: $0.0, value: $0.1) })
    }

    /// The translator's outputs for inputs as read back from the input topic.
    static func expectedOutputs(for inputs: [PythonKafkaClient.Record], translator: Translator) -> [Output] {
        inputs.flatMap { record in
            let input = InputRecord(
                topic: record.topic ?? "", partition: record.partition ?? 0, offset: record.offset ?? 0,
                key: record.keyBytes, value: record.valueBytes,
                headers: record.headerPairs.map { RecordHeader(name: $0.0, value: $0.1) },
                timestampMs: record.timestamp, valueIsNull: record.valueIsNull)
            return translator.translate(input, readAtMs: 0).map {
                Output(
                    topic: $0.topic, key: $0.key, value: Array($0.value), valueIsNull: $0.valueIsNull,
                    headers: $0.headers)
            }
        }
    }

    /// The multiset difference `left - right`.
    static func missing(_ left: [Output], from right: [Output]) -> [Output] {
        var counts: [Output: Int] = [:]
        for output in right { counts[output, default: 0] += 1 }
        var result: [Output] = []
        for output in left {
            if let count = counts[output], count > 0 { counts[output] = count - 1 } else { result.append(output) }
        }
        return result
    }

    /// Pairs (output topic, key) whose outputs are not in input order (by input partition and offset).
    static func orderViolations(_ written: [PythonKafkaClient.Record]) -> [String] {
        var lastOffset: [String: Int64] = [:]
        var violations: [String] = []
        let sorted = written.sorted {
            ($0.topic ?? "", $0.partition ?? 0, $0.offset ?? 0) < ($1.topic ?? "", $1.partition ?? 0, $1.offset ?? 0)
        }
        for record in sorted {
            guard let key = record.key else { continue }
            let headers = record.headerPairs
            let sourceText = headers.first { $0.0 == "pushgate-source" }?.1.map { String(decoding: $0, as: UTF8.self) }
            let sourceOffset: Int64?
            if let sourceText, let last = sourceText.split(separator: ":").last {
                sourceOffset = Int64(last)
            } else {
                sourceOffset = headers.first { $0.0 == "__connect.errors.offset" }?.1.flatMap {
                    Int64(String(decoding: $0, as: UTF8.self))
                }
            }
            guard let offset = sourceOffset else { continue }
            let slot = "\(record.topic ?? "")|\(key)"
            if let previous = lastOffset[slot], previous > offset {
                violations.append("\(slot): \(previous) before \(offset)")
            }
            lastOffset[slot] = offset
        }
        return violations
    }
}
