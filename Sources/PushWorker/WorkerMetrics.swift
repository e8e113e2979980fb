import CoreMetrics
import Foundation
import PushModel
import PushTranslation
import PushgateKafka
import Synchronization

/// The worker's metrics, created once through a swift-metrics factory (Prometheus in `pushgate run`,
/// nothing by default). Per-label metrics (format) are built up front; those whose labels are only known
/// at run time (stage and code, partition, error code) are created on first use and cached under a lock.
///
/// Every method may be called from any thread (the pipeline thread, tasks, librdkafka's threads).
public final class WorkerMetrics: Sendable {
    /// The `format` label of dead letters in ``MetricName/recordsProduced``.
    public static let deadLetterFormat = "dead-letter"

    private let factory: any MetricsFactory
    private let consumed: Counter
    private let produced: [String: Counter]
    // The timers take their durations a batch at a time (``BatchTimerHandler``); how, is decided once here.
    private let translationDuration: BatchRecorder
    private let endToEndLatency: BatchRecorder
    private let inFlight: Gauge
    private let producerQueue: Gauge
    private let deadLetters = Mutex<[DeadLetterKey: Counter]>([:])
    private let warnings = Mutex<[DiagnosticCode: Counter]>([:])
    private let kafkaErrors = Mutex<[String: Counter]>([:])
    private let consumerLag = Mutex<[String: Gauge]>([:])

    /// Creates every fixed metric with `factory`; the default records nothing.
    public init(factory: any MetricsFactory = NOOPMetricsHandler.instance) {
        self.factory = factory
        consumed = Counter(label: MetricName.recordsConsumed, factory: factory)
        var produced: [String: Counter] = [:]
        for label in OutputFormat.allCases.map(\.rawValue) + [Self.deadLetterFormat] {
            produced[label] = Counter(
                label: MetricName.recordsProduced, dimensions: [("format", label)], factory: factory)
        }
        self.produced = produced
        translationDuration = BatchRecorder(factory.makeTimer(label: MetricName.translationDuration, dimensions: []))
        endToEndLatency = BatchRecorder(factory.makeTimer(label: MetricName.endToEndLatency, dimensions: []))
        inFlight = Gauge(label: MetricName.recordsInFlight, factory: factory)
        producerQueue = Gauge(label: MetricName.producerQueueDepth, factory: factory)
    }

    /// One input record read.
    func recordConsumed(_ count: Int = 1) { consumed.increment(by: count) }

    /// Translations took `nanoseconds` each: recorded together after each batch of records read.
    func recordTranslations(nanoseconds: [Int64]) {
        translationDuration.record(nanoseconds)
    }

    /// The dead letters and warnings of one translation.
    func recordDiagnostics(of translation: Translation) {
        for report in translation.deadLetters {
            let errors = report.errors
            for index in errors.indices {
                let code = errors[index].code
                // Once per distinct code: a dead letter has few errors, so looking back costs less than a set.
                guard !errors[..<index].contains(where: { $0.code == code }) else { continue }
                counter(
                    in: deadLetters, key: DeadLetterKey(stage: report.stage, code: code), name: MetricName.deadLetters,
                    dimensions: [("stage", report.stage.rawValue), ("code", code.rawValue)]
                ).increment()
            }
        }
        for warning in translation.warnings {
            counter(
                in: warnings, key: warning.code, name: MetricName.warnings,
                dimensions: [("code", warning.code.rawValue)]
            ).increment()
        }
    }

    /// Acknowledged records of several inputs, by format.
    func recordProduced(_ counts: ProducedCounts) {
        for format in OutputFormat.allCases where counts.byFormat[format] > 0 {
            produced[format.rawValue]?.increment(by: counts.byFormat[format])
        }
        if counts.deadLetters > 0 { produced[Self.deadLetterFormat]?.increment(by: counts.deadLetters) }
    }

    /// The last outputs of input records whose timestamps are `timestampsMs` were acknowledged now.
    func recordAcknowledged(inputTimestampsMs timestampsMs: [Int64]) {
        let nowMs = Date().timeIntervalSince1970 * 1000
        var latencies: [Int64] = []
        latencies.reserveCapacity(timestampsMs.count)
        for timestampMs in timestampsMs where timestampMs > 0 {
            let latencyMs = nowMs - Double(timestampMs)
            if latencyMs >= 0 { latencies.append(Int64(latencyMs * 1_000_000)) }
        }
        if !latencies.isEmpty { endToEndLatency.record(latencies) }
    }

    /// The current number of records in flight and of records waiting in the producer.
    func recordQueues(inFlight records: Int, producerQueue depth: Int) {
        inFlight.record(records)
        producerQueue.record(depth)
    }

    /// One error reported by librdkafka.
    public func recordKafkaError(_ error: KafkaError) {
        counter(
            in: kafkaErrors, key: error.codeName, name: MetricName.kafkaErrors,
            dimensions: [("code", error.codeName)]
        ).increment()
    }

    /// Consumer lag (records) of one partition, from librdkafka's statistics.
    func recordConsumerLag(topic: String, partition: Int32, lag: Int64) {
        let gauge = consumerLag.withLock { gauges in
            let key = "\(topic)|\(partition)"
            if let gauge = gauges[key] { return gauge }
            let gauge = Gauge(
                label: MetricName.consumerLag, dimensions: [("topic", topic), ("partition", String(partition))],
                factory: factory)
            gauges[key] = gauge
            return gauge
        }
        gauge.record(lag)
    }

    /// Producer queue depth (`msg_cnt`) from librdkafka's statistics.
    func recordProducerQueue(_ depth: Int64) { producerQueue.record(depth) }

    /// The counter of `key` in `cache`, made on first use with `dimensions` (built only then).
    private func counter<Key: Hashable & Sendable>(
        in cache: borrowing Mutex<[Key: Counter]>, key: Key, name: String,
        dimensions: @autoclosure () -> [(String, String)]
    ) -> Counter {
        cache.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(label: name, dimensions: dimensions(), factory: factory)
            counters[key] = counter
            return counter
        }
    }
}

/// The names of the worker's metrics (Prometheus names: counters end in `_total`, durations are seconds).
public enum MetricName {
    /// Counter: input records read.
    public static let recordsConsumed = "pushgate_records_consumed_total"
    /// Counter, label `format` (`apns`, `adobe-carousel`, `fb-card`, `android-expandable`, `fcm`, `dead-letter`):
    /// records acknowledged by the broker.
    public static let recordsProduced = "pushgate_records_produced_total"
    /// Counter, labels `stage` and `code`: dead letters, once per distinct error code of each.
    public static let deadLetters = "pushgate_dead_letters_total"
    /// Counter, label `code`: warnings found.
    public static let warnings = "pushgate_warnings_total"
    /// Histogram (seconds): time to translate one input record.
    public static let translationDuration = "pushgate_translation_duration_seconds"
    /// Histogram (seconds): from the input record's timestamp to the acknowledgement of its last output.
    public static let endToEndLatency = "pushgate_end_to_end_latency_seconds"
    /// Gauge, labels `topic` and `partition`: consumer lag in records (librdkafka statistics).
    public static let consumerLag = "pushgate_consumer_lag"
    /// Gauge: input records read whose outputs are not all acknowledged.
    public static let recordsInFlight = "pushgate_records_in_flight"
    /// Gauge: records in the producer's queue, waiting for delivery reports.
    public static let producerQueueDepth = "pushgate_producer_queue_depth"
    /// Counter, label `code` (librdkafka's error name, e.g. `_TRANSPORT`): errors reported by librdkafka.
    public static let kafkaErrors = "pushgate_kafka_errors_total"
}

/// A dead-letter counter's labels: the stage and one error code.
private struct DeadLetterKey: Hashable, Sendable {
    let stage: Stage
    let code: DiagnosticCode
}
