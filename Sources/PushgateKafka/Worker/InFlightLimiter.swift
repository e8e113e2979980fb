import Synchronization

/// Bounds how many input records are in flight (read, not yet fully acknowledged): the worker's pipeline
/// thread takes a slot per record with ``take()`` while there is ``hasRoom``, the replayer takes slots
/// with ``acquire(_:)``, waiting while they are not all free, and delivery reports ``release(_:)`` them.
/// A waiter is woken once when its whole batch fits, not per released slot. A delivery failure ``fail(_:)``s it, which wakes and fails every
/// waiter.
///
/// Its state is behind a mutex; continuations are resumed after it is released.
package final class InFlightLimiter: Sendable {
    private struct State {
        var inFlight = 0
        var failure: (any Error)?
        var acquirers: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var failureWaiters: [(id: UInt64, continuation: CheckedContinuation<any Error, any Error>)] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())
    private let limit: Int
    private let failed = Atomic<Bool>(false)

    /// Creates a limiter of `limit` slots (at least one).
    package init(limit: Int) { self.limit = max(limit, 1) }

    /// The first failure reported, if any.
    package var firstFailure: (any Error)? { state.withLock { $0.failure } }

    /// Whether a failure was reported: a lock-free check, for loops that must stop soon after one.
    package var hasFailed: Bool { failed.load(ordering: .acquiring) }

    /// How many records are in flight.
    package var count: Int { state.withLock { $0.inFlight } }

    /// Whether one more slot is free now.
    package var hasRoom: Bool {
        let limit = self.limit
        return state.withLock { $0.inFlight < limit }
    }

    /// Takes one slot at once, free or not: for a reader that checked ``hasRoom`` first (or that must
    /// take a record it was handed anyway).
    package func take() {
        state.withLock { $0.inFlight += 1 }
    }

    /// Takes `count` slots (at most the limit), waiting until they are all free; earlier waiters are
    /// served first. Throws the failure, or `CancellationError`.
    package func acquire(_ count: Int = 1) async throws {
        let limit = self.limit
        let count = min(max(count, 1), limit)
        let id: UInt64 = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Answer {
                    case failed(any Error)
                    case cancelled, granted, waiting
                }
                let answer: Answer = state.withLock { state in
                    if let failure = state.failure { return .failed(failure) }
                    if Task.isCancelled { return .cancelled }
                    if state.acquirers.isEmpty, state.inFlight + count <= limit {
                        state.inFlight += count
                        return .granted
                    }
                    state.acquirers.append((id, count, continuation))
                    return .waiting
                }
                switch answer {
                case .failed(let failure): continuation.resume(throwing: failure)
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .granted: continuation.resume()
                case .waiting: break
                }
            }
        } onCancel: {
            let waiter: CheckedContinuation<Void, any Error>? = state.withLock { state in
                guard let index = state.acquirers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.acquirers.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Gives `count` slots back (any thread); wakes the waiters, in order, whose batches now fit.
    package func release(_ count: Int = 1) {
        let limit = self.limit
        let (woken, idle) = state.withLock { state in
            var woken: [CheckedContinuation<Void, any Error>] = []
            var idle: [CheckedContinuation<Void, Never>] = []
            state.inFlight -= count
            while let first = state.acquirers.first, state.inFlight + first.count <= limit {
                state.inFlight += first.count
                woken.append(state.acquirers.removeFirst().continuation)
            }
            if state.inFlight == 0 {
                idle = state.idleWaiters
                state.idleWaiters.removeAll()
            }
            return (woken, idle)
        }
        for waiter in woken { waiter.resume() }
        for waiter in idle { waiter.resume() }
    }

    /// Records the first failure and fails every waiting ``acquire()``.
    package func fail(_ error: any Error) {
        let (waiters, watchers) = state.withLock { state in
            if state.failure == nil { state.failure = error }
            failed.store(true, ordering: .releasing)
            defer {
                state.acquirers.removeAll()
                state.failureWaiters.removeAll()
            }
            return (state.acquirers.map(\.continuation), state.failureWaiters.map(\.continuation))
        }
        for waiter in waiters { waiter.resume(throwing: error) }
        if let failure = firstFailure {
            for watcher in watchers { watcher.resume(returning: failure) }
        }
    }

    /// Waits until the limiter fails and returns its first failure.
    /// - Throws: `CancellationError` when the task is cancelled first.
    package func nextFailure() async throws -> any Error {
        let id: UInt64 = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Error, any Error>) in
                let now: Result<any Error, any Error>? = state.withLock { state in
                    if let failure = state.failure { return .success(failure) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.failureWaiters.append((id, continuation))
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let watcher: CheckedContinuation<any Error, any Error>? = state.withLock { state in
                guard let index = state.failureWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.failureWaiters.remove(at: index).continuation
            }
            watcher?.resume(throwing: CancellationError())
        }
    }

    /// Waits until nothing is in flight, or `timeout` passes; `true` when idle.
    package func waitUntilIdle(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let idle = self.state.withLock { state in
                        if state.inFlight == 0 { return true }
                        state.idleWaiters.append(continuation)
                        return false
                    }
                    if idle { continuation.resume() }
                }
                return true
            }
            group.addTask {
                // A deadline, not a wait for a condition: the idle waiter above is the signal.
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            if !first {
                // Wake the idle waiter so the group can finish; it reports `true` too late to matter.
                let waiters = state.withLock { state in
                    defer { state.idleWaiters.removeAll() }
                    return state.idleWaiters
                }
                for waiter in waiters { waiter.resume() }
            }
            group.cancelAll()
            return first
        }
    }
}
