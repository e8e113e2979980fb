import CoreMetrics
import Prometheus
import PushWorker
import Synchronization

/// A Prometheus histogram of durations that takes a batch of them under one lock, each placed by integer
/// comparisons: what the worker's per-record histograms are, recorded once per batch of records. It emits
/// the lines swift-prometheus's `DurationHistogram` emits for the same durations (a test compares them).
final class BatchDurationHistogram: BatchTimerHandler, Sendable {
    let name: String
    private let buckets: [Duration]
    /// The buckets' upper bounds in nanoseconds, ascending.
    private let bounds: [Int64]
    private let state: Mutex<State>

    private struct State {
        /// Durations per bucket (not cumulative); the last entry counts those above every bound.
        var counts: [Int]
        var sum: Duration = .zero
        var count = 0
    }

    /// A histogram named `name` with `buckets` (ascending upper bounds).
    init(name: String, buckets: [Duration]) {
        self.name = name
        self.buckets = buckets
        self.bounds = buckets.map { Self.nanoseconds($0) }
        self.state = Mutex(State(counts: Array(repeating: 0, count: buckets.count + 1)))
    }

    func recordNanoseconds(_ duration: Int64) {
        state.withLock { state in
            state.counts[bucket(of: duration)] += 1
            state.count += 1
            state.sum += .nanoseconds(duration)
        }
    }

    func recordNanoseconds(batch durations: [Int64]) {
        guard !durations.isEmpty else { return }
        state.withLock { state in
            var total: Int64 = 0
            for duration in durations {
                state.counts[bucket(of: duration)] += 1
                total &+= duration
            }
            state.count += durations.count
            state.sum += .nanoseconds(total)
        }
    }

    /// The index of the first bucket whose bound is at least `duration` (as swift-prometheus counts a
    /// duration equal to a bound in that bucket); ``bounds``' count when it is above every bound.
    private func bucket(of duration: Int64) -> Int {
        var bucket = 0
        while bucket < bounds.count && bounds[bucket] < duration { bucket += 1 }
        return bucket
    }

    /// Appends the histogram in the Prometheus text format: its type, each bucket's cumulative count, the
    /// count above all (`+Inf`), the sum in seconds and the count.
    func emit(into buffer: inout [UInt8]) {
        let state = self.state.withLock { $0 }
        buffer.append(contentsOf: "# TYPE \(name) histogram\n".utf8)
        var cumulative = 0
        for (bound, count) in zip(buckets, state.counts) {
            cumulative += count
            buffer.append(contentsOf: "\(name)_bucket{le=\"\(bound.bucketRepresentation)\"} \(cumulative)\n".utf8)
        }
        buffer.append(contentsOf: "\(name)_bucket{le=\"+Inf\"} \(state.count)\n".utf8)
        buffer.append(contentsOf: "\(name)_sum \(state.sum.bucketRepresentation)\n".utf8)
        buffer.append(contentsOf: "\(name)_count \(state.count)\n".utf8)
    }

    /// `duration` in whole nanoseconds (a bucket bound is never finer).
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
