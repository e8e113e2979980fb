import Synchronization

/// Waiting for work that cannot be cancelled (a blocking librdkafka call on a dedicated thread) at most
/// a given time.
public enum Deadline {
    /// Starts `work` and returns `true` once it has finished, or `false` once `timeout` has passed first;
    /// in that case `work` goes on, unobserved.
    public static func race(_ timeout: Duration, _ work: @escaping @Sendable () async -> Void) async -> Bool {
        let outcome = Mutex<CheckedContinuation<Bool, Never>?>(nil)
        let finish: @Sendable (Bool) -> Void = { finished in
            outcome.withLock { continuation in
                continuation?.resume(returning: finished)
                continuation = nil
            }
        }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            outcome.withLock { $0 = continuation }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { finish(false) }
            }
            Task {
                await work()
                timer.cancel()
                finish(true)
            }
        }
    }
}
