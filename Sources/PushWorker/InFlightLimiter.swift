import Foundation
import Synchronization

/// Bounds how many input records are in flight (read, not yet fully acknowledged): the consume loop
/// takes slots for a whole batch in ``acquire(_:)``, waiting while they are not all free, and delivery
/// reports ``release(_:)`` slots from the producer's poll thread. A waiter is woken once when its whole
/// batch fits, not per released slot. A delivery failure ``fail(_:)``s it, which wakes and fails every
/// waiter.
///
/// `@unchecked Sendable` is safe because all mutable state is guarded by `lock`.
final class InFlightLimiter: @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private var inFlight = 0
    private var failure: (any Error)?
    private var acquirers: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var nextID: UInt64 = 0
    private let failed = Atomic<Bool>(false)

    init(limit: Int) { self.limit = max(limit, 1) }

    /// The first failure reported, if any.
    var firstFailure: (any Error)? { lock.withLock { failure } }

    /// Whether a failure was reported: a lock-free check, for loops that must stop soon after one.
    var hasFailed: Bool { failed.load(ordering: .acquiring) }

    /// How many records are in flight.
    var count: Int { lock.withLock { inFlight } }

    /// Takes `count` slots (at most the limit), waiting until they are all free; earlier waiters are
    /// served first. Throws the failure, or `CancellationError`.
    func acquire(_ count: Int = 1) async throws {
        let count = min(max(count, 1), limit)
        let id: UInt64 = lock.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if let failure {
                    lock.unlock()
                    continuation.resume(throwing: failure)
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else if acquirers.isEmpty, inFlight + count <= limit {
                    inFlight += count
                    lock.unlock()
                    continuation.resume()
                } else {
                    acquirers.append((id, count, continuation))
                    lock.unlock()
                }
            }
        } onCancel: {
            let waiter: CheckedContinuation<Void, any Error>? = lock.withLock {
                guard let index = acquirers.firstIndex(where: { $0.id == id }) else { return nil }
                return acquirers.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Gives `count` slots back (any thread); wakes the waiters, in order, whose batches now fit.
    func release(_ count: Int = 1) {
        var woken: [CheckedContinuation<Void, any Error>] = []
        var idle: [CheckedContinuation<Void, Never>] = []
        lock.withLock {
            inFlight -= count
            while let first = acquirers.first, inFlight + first.count <= limit {
                inFlight += first.count
                woken.append(acquirers.removeFirst().continuation)
            }
            if inFlight == 0 {
                idle = idleWaiters
                idleWaiters.removeAll()
            }
        }
        for waiter in woken { waiter.resume() }
        for waiter in idle { waiter.resume() }
    }

    /// Records the first failure and fails every waiting ``acquire()``.
    func fail(_ error: any Error) {
        let waiters: [CheckedContinuation<Void, any Error>] = lock.withLock {
            if failure == nil { failure = error }
            failed.store(true, ordering: .releasing)
            defer { acquirers.removeAll() }
            return acquirers.map(\.continuation)
        }
        for waiter in waiters { waiter.resume(throwing: error) }
    }

    /// Waits until nothing is in flight, or `timeout` passes; `true` when idle.
    func waitUntilIdle(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let idle = self.lock.withLock {
                        if self.inFlight == 0 { return true }
                        self.idleWaiters.append(continuation)
                        return false
                    }
                    if idle { continuation.resume() }
                }
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            if !first {
                // Wake the idle waiter so the group can finish; it reports `true` too late to matter.
                let waiters = lock.withLock {
                    defer { idleWaiters.removeAll() }
                    return idleWaiters
                }
                for waiter in waiters { waiter.resume() }
            }
            group.cancelAll()
            return first
        }
    }
}
