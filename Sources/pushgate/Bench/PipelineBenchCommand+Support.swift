import ArgumentParser
import Foundation
import Kafka
import Logging
import PushModel
import PushTranslation
import PushWorker
import ServiceLifecycle

/// Helpers of ``PipelineBenchCommand``: the input, the observer queries and the measurement type.
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

    /// Writes `count` records of the payload mix (keys `user-N`, one `trace-id` header) to `topic`,
    /// generated one at a time, and waits until every one is acknowledged; returns their value bytes and
    /// how many records the worker will write for them (the translator's outputs, counted here).
    static func produceInput(
        count: Int, topic: String, translator configuration: TranslatorConfiguration, bootstrapServers: String,
        properties: [String: String], logger: Logger
    ) async throws -> (bytes: Int, expectedOutputs: Int) {
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                bootstrapServers: bootstrapServers,
                properties: ["partitioner": "murmur2_random", "linger.ms": "20"].merging(properties) { $1 }),
            logger: logger)
        let translator = Translator(configuration: configuration)
        let failures = FailureCount()
        var bytes = 0
        var expectedOutputs = 0
        do {
            for index in 0..<count {
                let record = BenchInput.record(index, topic: topic)
                bytes += record.value.count
                expectedOutputs += translator.translate(BenchInput.inputRecord(record, offset: Int64(index)), readAtMs: 0).count
                try await producer.produceWhenQueued(record) { result in
                    if case .failure(let error) = result { failures.record(error) }
                }
            }
            try await producer.flush(timeout: .seconds(300))
        } catch {
            await producer.shutdown(flushTimeout: .zero)
            throw error
        }
        await producer.shutdown()
        if let (failed, first) = failures.summary {
            throw ValidationError("\(failed) input records could not be written; the first: \(first)")
        }
        return (bytes, expectedOutputs)
    }
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
    /// CPU time of the contender process from its start to the whole input committed.
    var cpuSeconds: Double
    /// CPU time of the contender process in the `seconds` window.
    var windowCPUSeconds: Double
    /// The contender process's peak resident set size, in bytes.
    var peakResidentBytes: Int
    /// CPU time of the broker process from the first output to the last (serving this contender and
    /// the benchmark's progress queries). NaN when the broker is not the benchmark's subprocess.
    var brokerWindowCPUSeconds: Double = .nan
    /// How many of the machine's cores were busy, whoever kept them so, from the first output to the
    /// last (`/proc/stat`): near the core count, the machine, not a wait, sets the contender's pace.
    var machineCoresBusy: Double = .nan
    /// Record counts of the output topics before the run.
    var countsBefore: [String: Int64] = [:]

    var recordsPerSecond: Double { Double(records) / seconds }
    var writtenRecordsPerSecond: Double { Double(records) / writtenSeconds }
    var outputsPerSecond: Double { Double(outputs) / writtenSeconds }
    var cpuMicrosecondsPerRecord: Double { cpuSeconds / Double(records) * 1e6 }
    var coresBusy: Double { windowCPUSeconds / seconds }
    /// The broker's CPU per input record while the outputs were written.
    var brokerMicrosecondsPerRecord: Double { brokerWindowCPUSeconds / Double(records) * 1e6 }

    static let header =
        "run  contender     written s  committed s  in rec/s (written)  outputs/s  cpu us/input  cores  peak RSS MB"
        + "  broker us/input  machine cores"

    func row(_ run: String, _ contender: Contender) -> String {
        run.padding(toLength: 5, withPad: " ", startingAt: 0) + contender.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
            + String(format: "%10.3f  %11.3f  %18.0f  %9.0f  %12.1f  %5.2f  %11.0f",
                     writtenSeconds, seconds, writtenRecordsPerSecond, outputsPerSecond, cpuMicrosecondsPerRecord,
                     coresBusy, Double(peakResidentBytes) / 1e6)
            + String(format: "  %15.1f  %13.2f", brokerMicrosecondsPerRecord, machineCoresBusy)
    }

    /// The median of each figure (the lower middle for an even count).
    static func median(_ measurements: [Measurement]) -> Measurement {
        // Figures that could not be taken (NaN, or infinite over an empty window) are left out.
        func middle(_ values: [Double]) -> Double {
            let sorted = values.filter(\.isFinite).sorted()
            return sorted.isEmpty ? .nan : sorted[(sorted.count - 1) / 2]
        }
        let seconds = middle(measurements.map(\.seconds))
        return Measurement(
            records: measurements.first?.records ?? 0,
            outputs: Int(middle(measurements.map { Double($0.outputs) })),
            seconds: seconds, writtenSeconds: middle(measurements.map(\.writtenSeconds)),
            cpuSeconds: middle(measurements.map(\.cpuSeconds)),
            windowCPUSeconds: middle(measurements.map(\.coresBusy)) * seconds,
            peakResidentBytes: Int(middle(measurements.map { Double($0.peakResidentBytes) })),
            brokerWindowCPUSeconds: middle(measurements.map(\.brokerWindowCPUSeconds)),
            machineCoresBusy: middle(measurements.map(\.machineCoresBusy)))
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
