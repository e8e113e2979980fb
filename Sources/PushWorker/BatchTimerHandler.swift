import CoreMetrics

/// A timer that also takes many durations in one call. The worker records its per-record durations
/// (translation, end-to-end latency) a batch at a time: a backend that takes a batch whole pays its lock
/// once per batch instead of once per record. Any other timer gets them one by one.
public protocol BatchTimerHandler: TimerHandler {
    /// Records each of `durations`, in nanoseconds.
    func recordNanoseconds(batch durations: [Int64])
}

extension TimerHandler {
    /// Records each of `durations`, in nanoseconds: in one call when the handler takes a batch.
    func recordNanoseconds(each durations: [Int64]) {
        if let batched = self as? any BatchTimerHandler {
            batched.recordNanoseconds(batch: durations)
        } else {
            for duration in durations { recordNanoseconds(duration) }
        }
    }
}
