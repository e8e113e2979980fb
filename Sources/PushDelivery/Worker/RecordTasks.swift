import Synchronization

/// The tasks of the records in flight, so that a shutdown past its budget can cancel them (their pushes
/// are then abandoned, their records left uncommitted).
final class RecordTasks: Sendable {
    private struct State {
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var next: UInt64 = 0
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Runs `body` in a task of its own, kept until it ends.
    func start(_ body: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            state.next += 1
            let id = state.next
            let task = Task { [weak self] in
                await body()
                self?.ended(id)
            }
            state.tasks[id] = task
            if state.cancelled { task.cancel() }
        }
    }

    /// Cancels every task running, and those started from now on.
    func cancelAll() {
        let tasks = state.withLock { state in
            state.cancelled = true
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
    }

    private func ended(_ id: UInt64) {
        _ = state.withLock { $0.tasks.removeValue(forKey: id) }
    }
}
