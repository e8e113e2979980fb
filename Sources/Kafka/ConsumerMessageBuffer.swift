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
    private var waiter: (id: UInt64, continuation: CheckedContinuation<KafkaConsumerMessage?, any Error>)?
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

    /// Poll thread: hands `message` to a waiting task or buffers it. Dropped once finished.
    func push(_ message: KafkaConsumerMessage) {
        condition.lock()
        if finished {
            condition.unlock()
            return
        }
        if let waiting = waiter {
            waiter = nil
            condition.unlock()
            waiting.continuation.resume(returning: message)
            return
        }
        items.append(message)
        condition.unlock()
    }

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
        if let error { waiting?.continuation.resume(throwing: error) } else { waiting?.continuation.resume(returning: nil) }
    }

    /// Task: the records buffered now, at most `maxCount` of them, or once one arrives, the next one;
    /// empty at the end or when the task is cancelled. Fewer hand-overs than ``next()`` under load.
    func nextBatch(maxCount: Int) async throws -> [KafkaConsumerMessage] {
        let batch = takeBuffered(maxCount: maxCount)
        if !batch.isEmpty { return batch }
        return try await next().map { [$0] } ?? []
    }

    /// Up to `maxCount` buffered records, when more than one is buffered; else none (then ``next()``).
    private func takeBuffered(maxCount: Int) -> [KafkaConsumerMessage] {
        condition.withLock {
            let available = min(count, max(maxCount, 1))
            guard available > 1 else { return [] }
            let batch = Array(items[head..<(head + available)])
            head += available
            if head > 1024 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            condition.signal()
            return batch
        }
    }

    /// Task: the next record, `nil` at the end or when the task is cancelled.
    func next() async throws -> KafkaConsumerMessage? {
        let id: UInt64 = condition.withLock {
            nextWaiterID += 1
            return nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                condition.lock()
                if count > 0 {
                    let message = items[head]
                    head += 1
                    if head > 1024 && head * 2 > items.count {
                        items.removeFirst(head)
                        head = 0
                    }
                    condition.signal()
                    condition.unlock()
                    continuation.resume(returning: message)
                } else if finished {
                    let error = failure
                    condition.unlock()
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: nil) }
                } else if Task.isCancelled {
                    condition.unlock()
                    continuation.resume(returning: nil)
                } else {
                    waiter = (id, continuation)
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
            waiting.continuation.resume(returning: nil)
        }
    }
}
