import Synchronization

/// How a graceful shutdown shares out a worker's shutdown timeout (SPEC 7): each step
/// ends by its own point in time, measured from when the shutdown began, so that the whole ends within
/// the timeout whatever each step meets (a step that finishes early leaves its time to the next).
package struct ShutdownBudget: Sendable {
    /// The steps of the stop sequence, in order, each with the share of the timeout by whose end it is done.
    package enum Step: Sendable {
        /// Records in flight finished: 40 %.
        case drained
        /// The last commit: 60 %.
        case committed
        /// The producer flushed and shut down: 80 %.
        case flushed
        /// The group left and the consumer closed: 95 %; the rest is for the process to exit.
        case left

        package var share: Double {
            switch self {
            case .drained: 0.4
            case .committed: 0.6
            case .flushed: 0.8
            case .left: 0.95
            }
        }
    }

    package let start: ContinuousClock.Instant
    package let total: Duration

    /// Starts a budget of `total` at `start`.
    package init(total: Duration, start: ContinuousClock.Instant = .now) {
        self.total = total
        self.start = start
    }

    /// When `step` must be done.
    package func deadline(of step: Step) -> ContinuousClock.Instant { start + total * step.share }

    /// The time left until `step` must be done; zero once past.
    package func left(until step: Step) -> Duration { max(.zero, deadline(of: step) - .now) }
}

/// When graceful shutdown began, noted as soon as the worker hears of it: a ``ShutdownBudget`` counts from
/// then, as the worker's last resort (`ShutdownDeadlineService`) does, and not from when the pipeline has stopped.
package final class ShutdownMoment: Sendable {
    package init() {}

    private let instant = Mutex<ContinuousClock.Instant?>(nil)

    /// Notes the present moment, unless one is noted already.
    package func mark() {
        instant.withLock { instant in
            if instant == nil { instant = .now }
        }
    }

    /// The moment noted; `nil` before graceful shutdown (a failure stops the worker without one).
    package var value: ContinuousClock.Instant? { instant.withLock { $0 } }
}
