import CoreMetrics

/// A timer that also takes many durations in one call. The worker records its per-record durations
/// (translation, end-to-end latency) a batch at a time: a backend that takes a batch whole pays its lock
/// once per batch instead of once per record. Any other timer gets them one by one.
public protocol BatchTimerHandler: TimerHandler {
    /// Records each of `durations`, in nanoseconds.
    func recordNanoseconds(batch durations: [Int64])
}

/// Hands batches of durations to a timer: whole to a ``BatchTimerHandler``, one by one to any other. Which
/// of the two is found out once, when it is made, not per batch.
struct BatchRecorder: Sendable {
    private let handler: any TimerHandler
    private let batched: (any BatchTimerHandler)?

    init(_ handler: any TimerHandler) {
        self.handler = handler
        self.batched = handler as? any BatchTimerHandler
    }

    /// Records each of `durations`, in nanoseconds.
    func record(_ durations: [Int64]) {
        if let batched {
            batched.recordNanoseconds(batch: durations)
        } else {
            for duration in durations { handler.recordNanoseconds(duration) }
        }
    }
}
