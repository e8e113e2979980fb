import Synchronization

/// Wakes the tasks that wait for something code in this target changes (a flag set, a search done, a
/// letter read back, a re-drive written), instead of their polling it with sleeps on the cooperative
/// pool. A waiter reads ``generation`` before it looks at what it waits for and passes it to
/// ``wait(after:atMost:)``: a ``notify()`` in between makes the wait return at once, so none is missed.
final class ChangeSignal: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Counts the ``notify()`` calls so far.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// How many tasks wait now.
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Something changed: every waiter returns.
    func notify() {
        let waiters = state.withLock { state in
            state.generation &+= 1
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns after the first ``notify()`` since ``generation`` was `generation` (at once if there was
    /// one), after `limit` when given, or when the task is cancelled.
    func wait(after generation: UInt64, atMost limit: Duration? = nil) async {
        let id = state.withLock { state in
            defer { state.nextWaiter &+= 1 }
            return state.nextWaiter
        }
        // One sleep for the bound, not a poll: cancelled as soon as the wait ends.
        let timeout = limit.map { limit in
            Task { [self] in
                try? await Task.sleep(for: limit)
                resume(id)
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    // Checked under the lock: a cancellation handler that ran before finds no waiter to resume.
                    if state.generation != generation || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            resume(id)
        }
        timeout?.cancel()
    }

    private func resume(_ id: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
}
