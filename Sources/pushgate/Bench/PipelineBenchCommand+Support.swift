import ArgumentParser
import Foundation
import Kafka
import Logging
import PushModel
import PushTranslation
import PushWorker
import ServiceLifecycle

/// Helpers of ``PipelineBenchCommand``: the data, the observer queries and the measurement types.
extension PipelineBenchCommand {
    /// How many records each of `topics` has received: the sum of its partitions' end offsets, asked
    /// with one ListOffsets request per topic (the "latest" timestamp, -1, which the embedded broker
    /// answers), where ``KafkaConsumer/watermarks(topic:timeoutMs:)`` sends one per partition.
    static func recordCounts(_ observer: KafkaConsumer, topics: [String]) async throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for topic in topics {
            let ends = try await observer.offsets(topic: topic, atOrAfter: -1)
            guard ends.values.allSatisfy({ $0 != nil }) else {
                throw ValidationError("the broker did not report the end offsets of \(topic)")
            }
            result[topic] = ends.values.reduce(0) { $0 + ($1 ?? 0) }
        }
        return result
    }

    /// User and system CPU time of this process so far, in seconds (every thread: contenders, broker, observer).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Writes `input` and waits until every record is acknowledged.
    static func produceInput(
        _ input: [KafkaProducerMessage], bootstrapServers: String, properties: [String: String], logger: Logger
    ) async throws {
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                bootstrapServers: bootstrapServers,
                properties: ["partitioner": "murmur2_random"].merging(properties) { $1 }),
            logger: logger)
        let failures = FailureCount()
        let queueFull = KafkaError.code(named: "_QUEUE_FULL")
        do {
            for message in input {
                while true {
                    do throws(KafkaError) {
                        try producer.produce(message) { result in
                            if case .failure(let error) = result { failures.record(error) }
                        }
                        break
                    } catch {
                        guard error.code == queueFull else { throw error }
                    }
                    try await Task.sleep(for: .milliseconds(10))  // librdkafka's queue is full: let it drain
                }
            }
            try await producer.flush(timeout: .seconds(120))
        } catch {
            await producer.shutdown(flushTimeout: .zero)
            throw error
        }
        await producer.shutdown()
        if let (count, first) = failures.summary {
            throw ValidationError("\(count) input records could not be written; the first: \(first)")
        }
    }

    /// The input records: the payload mix, keys `user-N`, one `trace-id` header.
    static func inputRecords(count: Int, topic: String) -> [KafkaProducerMessage] {
        PayloadMix.payloads(count: count).enumerated().map { index, entry in
            KafkaProducerMessage(
                topic: topic, key: Array("user-\(index)".utf8), value: entry.bytes,
                headers: [KafkaHeader(name: "trace-id", value: Array("t\(index)".utf8))])
        }
    }

    /// How many records the worker writes for `input`: the translator's outputs, counted beforehand.
    static func expectedOutputs(_ input: [KafkaProducerMessage], translator configuration: TranslatorConfiguration) -> Int {
        let translator = Translator(configuration: configuration)
        return input.enumerated().reduce(0) { total, entry in
            let record = InputRecord(
                topic: entry.element.topic, partition: 0, offset: Int64(entry.offset), key: entry.element.key,
                value: entry.element.value, headers: entry.element.headers.map { RecordHeader(name: $0.name, value: $0.value) },
                timestampMs: 0)
            return total + translator.translate(record, readAtMs: 0).count
        }
    }
}

/// What a run compares.
enum Contender: String {
    case passthrough, pushgate
}

/// One contender's run.
struct Measurement {
    var records: Int
    /// Output records written (more than expected only after a redelivery).
    var outputs: Int
    /// From the first output on the broker to the whole input committed.
    var seconds: Double
    /// From the first output on the broker to the last.
    var writtenSeconds: Double
    /// CPU time of the whole process in the `seconds` window.
    var cpuSeconds: Double

    var recordsPerSecond: Double { Double(records) / seconds }
    var writtenRecordsPerSecond: Double { Double(records) / writtenSeconds }
    var outputsPerSecond: Double { Double(outputs) / seconds }
    var cpuPercent: Double { cpuSeconds / seconds * 100 }

    /// The median of each figure (the lower middle for an even count).
    static func median(_ measurements: [Measurement]) -> Measurement {
        func middle(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? .nan : sorted[(sorted.count - 1) / 2]
        }
        let seconds = middle(measurements.map(\.seconds))
        return Measurement(
            records: measurements.first?.records ?? 0,
            outputs: measurements.map(\.outputs).sorted().dropFirst(max(0, (measurements.count - 1) / 2)).first ?? 0,
            seconds: seconds, writtenSeconds: middle(measurements.map(\.writtenSeconds)),
            cpuSeconds: middle(measurements.map(\.cpuPercent)) * seconds / 100)
    }
}

/// Counts failed deliveries of the input, from the producer's poll thread.
///
/// `@unchecked Sendable` is safe because the mutable state is only touched while holding `lock`.
final class FailureCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var first: KafkaError?

    func record(_ error: KafkaError) {
        lock.withLock {
            count += 1
            if first == nil { first = error }
        }
    }

    /// How many failed and the first failure; `nil` when none did.
    var summary: (Int, KafkaError)? {
        lock.withLock { first.map { (count, $0) } }
    }
}

/// Set once a contender's service group has returned, from its task.
///
/// `@unchecked Sendable` is safe because the flag is only touched while holding `lock`.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }

    var isSet: Bool { lock.withLock { value } }
}
