import Dispatch
import Foundation
import Synchronization

/// The bounded hand-over between the consumer's poll thread (one producer, which blocks when full)
/// and the task iterating ``KafkaConsumer/messages`` (one consumer, which suspends when empty).
///
/// All its state is behind a mutex; the poll thread waiting for room sleeps on a semaphore that taking
/// records (or finishing) signals.
final class ConsumerMessageBuffer: Sendable {
    private struct State {
        /// The records pushed, as the poll thread pushed them: a batch is handed over as the array it
        /// came in whenever it fits, so no record is copied (a copy retains every reference it holds).
        var chunks: [[KafkaConsumerMessage]] = []
        /// How many records of `chunks[0]` were taken already.
        var head = 0
        /// Records buffered, not taken yet.
        var count = 0
        var waiter: (id: UInt64, maxCount: Int, continuation: CheckedContinuation<[KafkaConsumerMessage], any Error>)?
        var nextWaiterID: UInt64 = 0
        var finished = false
        var failure: KafkaError?
        /// Whether the poll thread sleeps on `roomSignal`.
        var pollThreadWaits = false
    }

    private let capacity: Int
    private let state = Mutex(State())
    private let roomSignal = DispatchSemaphore(value: 0)

    init(capacity: Int) { self.capacity = max(capacity, 1) }

    /// Poll thread: waits up to `timeout` seconds for room; `true` when a record may be pushed.
    func waitForRoom(timeout: TimeInterval) -> Bool {
        let capacity = self.capacity
        let hasRoom = state.withLock { state in
            if state.count < capacity || state.finished { return true }
            state.pollThreadWaits = true
            return false
        }
        if hasRoom { return true }
        _ = roomSignal.wait(timeout: .now() + timeout)
        return state.withLock { state in
            state.pollThreadWaits = false
            return state.count < capacity || state.finished
        }
    }

    /// Poll thread: appends `messages`, in order, and hands a batch to a waiting task. Dropped once
    /// finished.
    func push(_ messages: [KafkaConsumerMessage]) {
        guard !messages.isEmpty else { return }
        let handOver: (CheckedContinuation<[KafkaConsumerMessage], any Error>, [KafkaConsumerMessage])? = state.withLock
        {
            state in
            if state.finished { return nil }
            state.chunks.append(messages)
            state.count += messages.count
            guard let waiting = state.waiter else { return nil }
            state.waiter = nil
            return (waiting.continuation, Self.take(from: &state, maxCount: waiting.maxCount))
        }
        guard let (continuation, batch) = handOver else { return }
        continuation.resume(returning: batch)
    }

    /// Poll thread: how many more records fit now.
    var room: Int {
        let capacity = self.capacity
        return state.withLock { max(capacity - $0.count, 0) }
    }

    /// Ends the sequence: at once with `error`, or after nothing more (buffered records are dropped:
    /// they were never handed out, so they are not committed and will be read again).
    func finish(error: KafkaError? = nil) {
        let ended: (waiting: CheckedContinuation<[KafkaConsumerMessage], any Error>?, first: Bool) = state.withLock {
            state in
            if state.finished { return (nil, false) }
            state.finished = true
            state.failure = error
            state.chunks.removeAll()
            state.head = 0
            state.count = 0
            defer { state.waiter = nil }
            return (state.waiter?.continuation, true)
        }
        guard ended.first else { return }
        roomSignal.signal()
        if let error { ended.waiting?.resume(throwing: error) } else { ended.waiting?.resume(returning: []) }
    }

    /// Task: the records buffered now, at most `maxCount` of them, or once some arrive, those; empty at
    /// the end or when the task is cancelled. One hand-over per batch, not per record.
    func nextBatch(maxCount: Int) async throws -> [KafkaConsumerMessage] {
        let maxCount = max(maxCount, 1)
        let id: UInt64 = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                enum Answer {
                    case batch([KafkaConsumerMessage])
                    case failure(KafkaError)
                    case waiting
                }
                let answer: Answer = state.withLock { state in
                    if state.count > 0 { return .batch(Self.take(from: &state, maxCount: maxCount)) }
                    if state.finished { return state.failure.map(Answer.failure) ?? .batch([]) }
                    if Task.isCancelled { return .batch([]) }
                    state.waiter = (id, maxCount, continuation)
                    return .waiting
                }
                switch answer {
                case .batch(let batch):
                    continuation.resume(returning: batch)
                    if !batch.isEmpty { wakePollThreadIfWaiting() }
                case .failure(let error):
                    continuation.resume(throwing: error)
                case .waiting:
                    break
                }
            }
        } onCancel: {
            let waiting: CheckedContinuation<[KafkaConsumerMessage], any Error>? = state.withLock { state in
                guard let waiting = state.waiter, waiting.id == id else { return nil }
                state.waiter = nil
                return waiting.continuation
            }
            waiting?.resume(returning: [])
        }
    }

    /// Task: the next record, `nil` at the end or when the task is cancelled.
    func next() async throws -> KafkaConsumerMessage? {
        try await nextBatch(maxCount: 1).first
    }

    /// Wakes the poll thread if it sleeps waiting for room (records were just taken).
    private func wakePollThreadIfWaiting() {
        let waits = state.withLock { state in
            defer { state.pollThreadWaits = false }
            return state.pollThreadWaits
        }
        if waits { roomSignal.signal() }
    }

    /// Takes up to `maxCount` buffered records from `state`, from the oldest pushed batch only: that
    /// batch itself when it fits (nothing copied), else its next `maxCount` records.
    private static func take(from state: inout State, maxCount: Int) -> [KafkaConsumerMessage] {
        guard let first = state.chunks.first else { return [] }
        if state.head == 0 && first.count <= maxCount {
            state.chunks.removeFirst()
            state.count -= first.count
            return first
        }
        let end = min(first.count, state.head + maxCount)
        let batch = Array(first[state.head..<end])
        state.count -= batch.count
        if end == first.count {
            state.chunks.removeFirst()
            state.head = 0
        } else {
            state.head = end
        }
        return batch
    }
}
