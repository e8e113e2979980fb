import Logging

/// Commits what an ``OffsetTracker`` says is finished: periodically while running, and once more, with
/// retries, before leaving.
package struct OffsetCommitter: Sendable {
    package let consumer: KafkaConsumer
    package let tracker: OffsetTracker
    package let logger: Logger

    /// Creates the committer of `tracker`'s offsets through `consumer`.
    package init(consumer: KafkaConsumer, tracker: OffsetTracker, logger: Logger) {
        self.consumer = consumer
        self.tracker = tracker
        self.logger = logger
    }

    /// Until cancelled: commits every `interval`; throws the limiter's first failure.
    package func commitPeriodically(every interval: Duration, limiter: InFlightLimiter) async throws {
        while !Task.isCancelled {
            // A periodic timer: commits are batched over `interval` on purpose (one request, not one per input).
            try await Task.sleep(for: interval)
            if let failure = limiter.firstFailure { throw failure }
            await commit()
        }
    }

    /// Commits what is finished; `false` when the commit failed (it is then offered again next time).
    /// - Parameter timeout: the longest this commit waits for the coordinator's answer; by default the
    ///   consumer's commit timeout.
    @discardableResult
    package func commit(timeout: Duration? = nil) async -> Bool {
        let offsets = tracker.takeCommittable()
        guard !offsets.isEmpty else { return true }
        do {
            try await consumer.commit(offsets, timeout: timeout)
            return true
        } catch {
            tracker.commitFailed(offsets)
            logger.warning("commit of \(offsets.map(\.description).joined(separator: ", ")) failed: \(error)")
            return false
        }
    }

    /// The last commit before leaving: retried a few times, as a rebalance or a broker hiccup may refuse it,
    /// and never past `deadline` (a coordinator that does not answer makes every attempt wait).
    /// - Returns: whether the finished offsets were committed (`false` after five failed attempts, or at
    ///   the deadline).
    @discardableResult
    package func commitFinally(before deadline: ContinuousClock.Instant) async -> Bool {
        for attempt in 1...5 {
            let left = deadline - .now
            guard left > .milliseconds(10) else { return false }
            if await commit(timeout: left) { return true }
            // A back-off before retrying: nothing signals that the coordinator will take the commit now.
            let pause = Duration.milliseconds(200 * attempt)
            guard attempt < 5, deadline - .now > pause else { return false }
            try? await Task.sleep(for: pause)
        }
        return false
    }
}
