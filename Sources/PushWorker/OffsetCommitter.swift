import Logging
import PushgateKafka

/// Commits what an ``OffsetTracker`` says is finished: periodically while running, and once more, with
/// retries, before leaving.
struct OffsetCommitter: Sendable {
    let consumer: KafkaConsumer
    let tracker: OffsetTracker
    let logger: Logger

    /// Until cancelled: commits every `interval`; throws the limiter's first failure.
    func commitPeriodically(every interval: Duration, limiter: InFlightLimiter) async throws {
        while !Task.isCancelled {
            // A periodic timer: commits are batched over `interval` on purpose (one request, not one per input).
            try await Task.sleep(for: interval)
            if let failure = limiter.firstFailure { throw failure }
            await commit()
        }
    }

    /// Commits what is finished; `false` when the commit failed (it is then offered again next time).
    @discardableResult
    func commit() async -> Bool {
        let offsets = tracker.takeCommittable()
        guard !offsets.isEmpty else { return true }
        do {
            try await consumer.commit(offsets)
            return true
        } catch {
            tracker.commitFailed(offsets)
            logger.warning("commit of \(offsets.map(\.description).joined(separator: ", ")) failed: \(error)")
            return false
        }
    }

    /// The last commit before leaving: retried a few times, as a rebalance or a broker hiccup may refuse it.
    /// - Returns: whether the finished offsets were committed (`false` after five failed attempts).
    @discardableResult
    func commitFinally() async -> Bool {
        for attempt in 1...5 {
            if await commit() { return true }
            // A back-off before retrying: nothing signals that the coordinator will take the commit now.
            if attempt < 5 { try? await Task.sleep(for: .milliseconds(200 * attempt)) }
        }
        return false
    }
}
