import Foundation
import PushModel
import PushgateKafka
import Synchronization

/// Gathers the inputs whose records are all acknowledged during one poll of the producer, and settles
/// them together afterwards: one tracker lock, one slot release and one metrics update per poll, not
/// per record. A delivery failure goes to the in-flight limiter, which stops the pipeline.
///
/// What it gathers is only touched on the thread that serves the producer's reports (delivery reports,
/// then ``settle()`` after the poll that served them), behind a mutex that is never contended.
final class DeliveryLedger: Sendable {
    private struct Gathered {
        var finished: [OffsetTracker.Ticket] = []
        var produced = ProducedCounts()
        var timestamps: [Int64] = []
    }

    private let tracker: OffsetTracker
    private let limiter: InFlightLimiter
    private let metrics: WorkerMetrics
    private let gathered = Mutex(Gathered())

    init(tracker: OffsetTracker, limiter: InFlightLimiter, metrics: WorkerMetrics) {
        self.tracker = tracker
        self.limiter = limiter
        self.metrics = metrics
    }

    /// Poll thread: the last record of `ticket`'s input was acknowledged.
    func finished(_ ticket: OffsetTracker.Ticket, tally: ProducedTally, inputTimestampMs: Int64?) {
        gathered.withLock { gathered in
            gathered.finished.append(ticket)
            gathered.produced.add(tally)
            if let inputTimestampMs { gathered.timestamps.append(inputTimestampMs) }
        }
    }

    /// Any thread: a record could not be written; the pipeline stops, its input stays uncommitted.
    func fail(_ error: any Error) { limiter.fail(error) }

    /// Any thread: whether `ticket`'s partition is still assigned under the ticket's assignment.
    func isCurrent(_ ticket: OffsetTracker.Ticket) -> Bool { tracker.isCurrent(ticket) }

    /// Any thread, once per input: `ticket`'s input was given up because its partition was revoked or
    /// lost (its new owner reads it again); frees its slot without counting anything as produced.
    func abandoned(_ ticket: OffsetTracker.Ticket) { limiter.release() }

    /// Poll thread, after each poll that served reports: commits the finished inputs' progress to the
    /// tracker, frees their slots and counts them. The arrays are emptied keeping their storage: once
    /// grown to a poll's worth of inputs, gathering allocates nothing.
    func settle() {
        gathered.withLock { gathered in
            guard !gathered.finished.isEmpty else { return }
            tracker.finish(gathered.finished)
            limiter.release(gathered.finished.count)
            metrics.recordProduced(gathered.produced)
            metrics.recordAcknowledged(inputTimestampsMs: gathered.timestamps)
            gathered.finished.removeAll(keepingCapacity: true)
            gathered.produced = ProducedCounts()
            gathered.timestamps.removeAll(keepingCapacity: true)
        }
    }
}

/// Acknowledged records per format and of dead letters, summed over several inputs.
struct ProducedCounts: Sendable {
    private(set) var byFormat = PerFormat(repeating: 0)
    private(set) var deadLetters = 0

    mutating func add(_ tally: ProducedTally) {
        for format in tally.formats { byFormat[format] += 1 }
        deadLetters += tally.deadLetters
    }
}
