import Foundation

/// Bounds how many input records are in flight (read, not yet fully acknowledged): the consume loop
/// waits in ``acquire()`` when the bound is reached, and delivery reports ``release()`` slots from the
/// producer's poll thread. A delivery failure ``fail(_:)``s it, which wakes and fails every waiter.
///
/// `@unchecked Sendable` is safe because all mutable state is guarded by `lock`.
final class InFlightLimiter: @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private var inFlight = 0
    private var failure: (any Error)?
    private var acquirers: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var nextID: UInt64 = 0

    init(limit: Int) { self.limit = max(limit, 1) }

    /// The first failure reported, if any.
    var firstFailure: (any Error)? { lock.withLock { failure } }

    /// How many records are in flight.
    var count: Int { lock.withLock { inFlight } }

    /// Takes a slot, waiting while all are taken. Throws the failure, or `CancellationError`.
    func acquire() async throws {
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
                } else if inFlight < limit {
                    inFlight += 1
                    lock.unlock()
                    continuation.resume()
                } else {
                    acquirers.append((id, continuation))
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

    /// Gives a slot back (any thread); hands it to the longest waiter, if any.
    func release() {
        var handedTo: CheckedContinuation<Void, any Error>?
        var idle: [CheckedContinuation<Void, Never>] = []
        lock.withLock {
            if !acquirers.isEmpty {
                handedTo = acquirers.removeFirst().continuation
            } else {
                inFlight -= 1
                if inFlight == 0 {
                    idle = idleWaiters
                    idleWaiters.removeAll()
                }
            }
        }
        handedTo?.resume()
        for waiter in idle { waiter.resume() }
    }

    /// Records the first failure and fails every waiting ``acquire()``.
    func fail(_ error: any Error) {
        let waiters: [CheckedContinuation<Void, any Error>] = lock.withLock {
            if failure == nil { failure = error }
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
