import CoreMetrics
import Foundation
import Synchronization
import Testing

@testable import PushWorker

/// The worker's per-record durations reach any swift-metrics timer: a batch at once to a timer that takes
/// batches, one by one to any other, each duration once and in order.
@Suite struct BatchRecorderTests {
    /// A timer that keeps what it is given, one by one.
    final class OneByOneTimer: TimerHandler, Sendable {
        let values = Mutex<[Int64]>([])
        func recordNanoseconds(_ duration: Int64) { values.withLock { $0.append(duration) } }
    }

    /// A timer that keeps the batches it is given (and anything given one by one, apart).
    final class BatchingTimer: BatchTimerHandler, Sendable {
        let batches = Mutex<[[Int64]]>([])
        let values = Mutex<[Int64]>([])
        func recordNanoseconds(_ duration: Int64) { values.withLock { $0.append(duration) } }
        func recordNanoseconds(batch durations: [Int64]) { batches.withLock { $0.append(durations) } }
    }

    /// Gives the worker's metrics the timers of `timers` by label, and records nothing else.
    struct Factory: MetricsFactory {
        let timers: [String: any TimerHandler]

        func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
            timers[label] ?? NOOPMetricsHandler.instance
        }
        func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
            NOOPMetricsHandler.instance
        }
        func makeFloatingPointCounter(label: String, dimensions: [(String, String)])
            -> any FloatingPointCounterHandler
        { NOOPMetricsHandler.instance }
        func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
            NOOPMetricsHandler.instance
        }
        func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
            NOOPMetricsHandler.instance
        }
        func destroyCounter(_ handler: any CounterHandler) {}
        func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
        func destroyMeter(_ handler: any MeterHandler) {}
        func destroyRecorder(_ handler: any RecorderHandler) {}
        func destroyTimer(_ handler: any TimerHandler) {}
    }

    @Test func aTimerWithoutBatchesGetsEachDurationInOrder() {
        let translation = OneByOneTimer()
        let latency = OneByOneTimer()
        let metrics = WorkerMetrics(
            factory: Factory(timers: [
                MetricName.translationDuration: translation, MetricName.endToEndLatency: latency,
            ]))
        metrics.recordTranslations(nanoseconds: [30, 10, 20])
        metrics.recordTranslations(nanoseconds: [5])
        #expect(translation.values.withLock { $0 } == [30, 10, 20, 5])
        // Timestamps of 0 (none) are not latencies; the others are, each once.
        let nowMs = Int64(Date().timeIntervalSince1970 * 1000)
        metrics.recordAcknowledged(inputTimestampsMs: [nowMs - 1000, 0, nowMs - 2000])
        let latencies = latency.values.withLock { $0 }
        #expect(latencies.count == 2)
        #expect(latencies.allSatisfy { $0 >= 900_000_000 && $0 < 60_000_000_000 })
    }

    @Test func aTimerThatTakesBatchesGetsEachBatchWhole() {
        let translation = BatchingTimer()
        let metrics = WorkerMetrics(factory: Factory(timers: [MetricName.translationDuration: translation]))
        metrics.recordTranslations(nanoseconds: [30, 10, 20])
        metrics.recordTranslations(nanoseconds: [5])
        #expect(translation.batches.withLock { $0 } == [[30, 10, 20], [5]])
        #expect(translation.values.withLock { $0 }.isEmpty)
    }
}
