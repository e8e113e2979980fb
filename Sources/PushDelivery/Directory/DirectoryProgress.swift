import PushgateKafka
import Synchronization

/// How far a ``DirectoryReader`` has read: the next offset of each partition, each partition's end as it
/// was when reading started, and whoever waits for reading to get there.
final class DirectoryProgress: Sendable {
    fileprivate struct State {
        var next: [Int32: Int64] = [:]
        var ends: [Int32: Int64]?
        var caughtUp = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Whether the ends are known (reading has started once).
    var isStarted: Bool { state.withLock { $0.ends != nil } }

    /// Whether every partition has been read up to its end as it was at the start.
    var isCaughtUp: Bool { state.withLock { $0.caughtUp } }

    /// The partitions, as found at the start.
    var partitions: [Int32] { state.withLock { $0.ends.map { Array($0.keys).sorted() } ?? [] } }

    /// The next offset to read of each partition (for a reader made again after a failure).
    var nextOffsets: [Int32: Int64] { state.withLock { $0.next } }

    /// Sets where each partition starts (its first offset still stored) and where it ends now.
    func start(first: [Int32: Int64], ends: [Int32: Int64]) {
        let waiters = state.withLock { state in
            state.next = first
            state.ends = ends
            return state.checkCaughtUp()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Notes that `partition` will next read `offset`: a record before it was handled, or the consumer's
    /// position went past records never handed over (transaction markers).
    func advance(partition: Int32, to offset: Int64) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard offset > state.next[partition] ?? .min else { return [] }
            state.next[partition] = offset
            return state.caughtUp ? [] : state.checkCaughtUp()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once reading has caught up (at once if it has); a cancelled task stops waiting.
    func waitUntilCaughtUp() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    if state.caughtUp || Task.isCancelled { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            // Resumes every waiter; those not cancelled find `caughtUp` still false and wait again.
            let waiters = state.withLock { state in
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        if !isCaughtUp && !Task.isCancelled { await waitUntilCaughtUp() }
    }
}

extension DirectoryProgress.State {
    /// Sets `caughtUp` when every partition's next offset has reached its end; returns the waiters to resume.
    fileprivate mutating func checkCaughtUp() -> [CheckedContinuation<Void, Never>] {
        guard let ends, ends.allSatisfy({ partition, end in (next[partition] ?? 0) >= end }) else { return [] }
        caughtUp = true
        defer { waiters = [] }
        return waiters
    }
}
