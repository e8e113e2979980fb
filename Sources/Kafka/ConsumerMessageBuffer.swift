import Foundation

/// The bounded hand-over between the consumer's poll thread (one producer, which blocks when full)
/// and the task iterating ``KafkaConsumer/messages`` (one consumer, which suspends when empty).
///
/// `@unchecked Sendable` is safe because all mutable state is accessed while holding `condition`.
final class ConsumerMessageBuffer: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var items: [KafkaConsumerMessage] = []
    private var head = 0
    private var waiter: (id: UInt64, maxCount: Int, continuation: CheckedContinuation<[KafkaConsumerMessage], any Error>)?
    private var nextWaiterID: UInt64 = 0
    private var finished = false
    private var failure: KafkaError?

    init(capacity: Int) { self.capacity = max(capacity, 1) }

    private var count: Int { items.count - head }

    /// Poll thread: waits up to `timeout` seconds for room; `true` when a record may be pushed.
    func waitForRoom(timeout: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if count < capacity || finished { return true }
        _ = condition.wait(until: Date(timeIntervalSinceNow: timeout))
        return count < capacity || finished
    }

    /// Poll thread: appends `messages`, in order, and hands a batch to a waiting task. Dropped once
    /// finished.
    func push(_ messages: [KafkaConsumerMessage]) {
        guard !messages.isEmpty else { return }
        condition.lock()
        if finished {
            condition.unlock()
            return
        }
        items.append(contentsOf: messages)
        guard let waiting = waiter else {
            condition.unlock()
            return
        }
        waiter = nil
        let batch = takeLocked(maxCount: waiting.maxCount)
        condition.unlock()
        waiting.continuation.resume(returning: batch)
    }

    /// Poll thread: how many more records fit now.
    var room: Int { condition.withLock { max(capacity - count, 0) } }

    /// Ends the sequence: at once with `error`, or after nothing more (buffered records are dropped:
    /// they were never handed out, so they are not committed and will be read again).
    func finish(error: KafkaError? = nil) {
        condition.lock()
        if finished {
            condition.unlock()
            return
        }
        finished = true
        failure = error
        items.removeAll()
        head = 0
        let waiting = waiter
        waiter = nil
        condition.broadcast()
        condition.unlock()
        if let error { waiting?.continuation.resume(throwing: error) } else { waiting?.continuation.resume(returning: []) }
    }

    /// Task: the records buffered now, at most `maxCount` of them, or once some arrive, those; empty at
    /// the end or when the task is cancelled. One hand-over per batch, not per record.
    func nextBatch(maxCount: Int) async throws -> [KafkaConsumerMessage] {
        let maxCount = max(maxCount, 1)
        let id: UInt64 = condition.withLock {
            nextWaiterID += 1
            return nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                condition.lock()
                if count > 0 {
                    let batch = takeLocked(maxCount: maxCount)
                    condition.unlock()
                    continuation.resume(returning: batch)
                } else if finished {
                    let error = failure
                    condition.unlock()
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: []) }
                } else if Task.isCancelled {
                    condition.unlock()
                    continuation.resume(returning: [])
                } else {
                    waiter = (id, maxCount, continuation)
                    condition.unlock()
                }
            }
        } onCancel: {
            condition.lock()
            guard let waiting = waiter, waiting.id == id else {
                condition.unlock()
                return
            }
            waiter = nil
            condition.unlock()
            waiting.continuation.resume(returning: [])
        }
    }

    /// Task: the next record, `nil` at the end or when the task is cancelled.
    func next() async throws -> KafkaConsumerMessage? {
        try await nextBatch(maxCount: 1).first
    }

    /// Takes up to `maxCount` buffered records; `condition` must be locked. Wakes the poll thread if it
    /// waits for room.
    private func takeLocked(maxCount: Int) -> [KafkaConsumerMessage] {
        let available = min(count, maxCount)
        if head == 0 && available == items.count {
            // Everything buffered: hand the array itself over (no element is copied).
            let batch = items
            items = []
            items.reserveCapacity(batch.count)
            condition.signal()
            return batch
        }
        let batch = Array(items[head..<(head + available)])
        head += available
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.signal()
        return batch
    }
}
