import Logging
import PushgateKafka

/// The run-and-stop sequence of ``PushWorker``: run its tasks until the first ends (graceful shutdown,
/// or a failure), then wait for what is in flight, commit, flush the producer and close the consumer
/// (leaving the group), in that order.
struct PipelineRunner {
    let consumer: KafkaConsumer
    let producer: KafkaProducer
    let tracker: OffsetTracker
    let limiter: InFlightLimiter
    let configuration: PushWorkerConfiguration
    /// When graceful shutdown began; the stop sequence's shares count from it.
    let shutdownBegan: ShutdownMoment
    let logger: Logger

    /// Runs `tasks` together with the periodic commit, then stops everything; returns the failure that
    /// stopped the pipeline, `nil` after a graceful shutdown.
    func run(_ tasks: [@Sendable () async throws -> Void]) async -> (any Error)? {
        let committer = OffsetCommitter(consumer: consumer, tracker: tracker, logger: logger)
        let limiter = self.limiter
        let interval = configuration.commitInterval
        var failure: (any Error)?
        // The shutdown's time counts from when it began, or when the first task ends (a failure), before
        // waiting for the others: a periodic commit in progress may take up to the commit timeout.
        var stopped = ContinuousClock.now
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in tasks { group.addTask { try await task() } }
                group.addTask { try await committer.commitPeriodically(every: interval, limiter: limiter) }
                do {
                    _ = try await group.next()
                } catch {
                    stopped = .now
                    throw error
                }
                stopped = .now
                group.cancelAll()
                try await group.waitForAll()
            }
        } catch is CancellationError {
            failure = limiter.firstFailure
        } catch {
            failure = error
        }
        failure = failure ?? limiter.firstFailure
        let budget = ShutdownBudget(
            total: configuration.shutdownTimeout, start: min(stopped, shutdownBegan.value ?? stopped))
        if let failure {
            logger.error("stopping after a failure: \(failure)")
        } else if !(await limiter.waitUntilIdle(timeout: min(configuration.drainTimeout, budget.left(until: .drained))))
        {
            logger.warning("\(limiter.count) records still in flight at shutdown; they stay uncommitted")
        }
        if !(await committer.commitFinally(before: budget.deadline(of: .committed))) {
            logger.warning(
                "the last commit failed: the records finished since the one before are read again by the next owner")
        }
        let flushTimeout = failure == nil ? configuration.drainTimeout : .seconds(1)
        await producer.shutdown(flushTimeout: min(flushTimeout, budget.left(until: .flushed)))
        // Nothing finishes after the producer is shut down: leaving the group revokes every partition,
        // which must not wait for records in flight (the revocation drain) that never will.
        tracker.pipelineDidStop()
        if !(await consumer.close(timeout: budget.left(until: .left))) {
            logger.warning("leaving the group did not finish within the shutdown timeout; stopping without it")
        }
        return failure
    }
}
