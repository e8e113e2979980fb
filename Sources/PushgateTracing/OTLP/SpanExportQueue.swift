import Synchronization

/// The spans ended and not yet exported, as OTLP bytes, in batches of at most `maxBatchSize` spans: the batch span
/// processor's queue (OTEL_BSP_MAX_QUEUE_SIZE, OTEL_BSP_MAX_EXPORT_BATCH_SIZE). A span ended while the queue is full
/// is dropped and counted; whoever ends a span never waits (it encodes the span into the batch under the queue's
/// lock, a few hundred bytes). The exporter waits for a full batch or its schedule
/// delay (``waitForBatch(upTo:)``) and takes what is queued (``take()``).
public final class SpanExportQueue: Sendable {
    /// Spans written one after the other as `ScopeSpans.spans` fields, and how many.
    struct Batch: Sendable {
        var writer: ProtobufWriter
        var count = 0

        /// An empty batch with room for `capacity` bytes.
        init(capacity: Int = 0) { writer = ProtobufWriter(uninitializedCapacity: capacity) }
        /// The spans' bytes.
        var bytes: [UInt8] { writer.bytes }
    }

    private struct State {
        var filling = Batch()
        /// The bytes of the last full batch: a new batch starts with room for an eighth more (``batchCapacity``), so
        /// that filling it does not copy it as it grows (spans differ a little in size from batch to batch).
        var fullBatchBytes = 0
        var batchCapacity: Int { fullBatchBytes + fullBatchBytes / 8 }
        var full: [Batch] = []
        var queued = 0
        var waiter: CheckedContinuation<Void, Never>?
        var woken = false
        var closed = false
    }

    /// The most spans the queue holds.
    let maxQueueSize: Int
    /// The most spans in one batch.
    let maxBatchSize: Int
    private let dropped: @Sendable (Int) -> Void
    private let state = Mutex(State())

    /// A queue of at most `maxQueueSize` spans in batches of `maxBatchSize`; spans dropped are counted with
    /// `dropped`.
    public init(maxQueueSize: Int = 2048, maxBatchSize: Int = 512, dropped: @escaping @Sendable (Int) -> Void) {
        self.maxQueueSize = max(1, maxQueueSize)
        self.maxBatchSize = max(1, min(maxBatchSize, maxQueueSize))
        self.dropped = dropped
    }

    /// Queues one span, which `write` encodes into the batch being filled, or drops it when the queue is full;
    /// wakes the exporter when a batch is full.
    func submit(_ write: (inout ProtobufWriter) -> Void) {
        // What happened, and the exporter to wake only when a batch filled up (once in `maxBatchSize` spans).
        let filled = state.withLock { state -> Bool? in
            guard state.queued < maxQueueSize else { return nil }
            state.queued += 1
            write(&state.filling.writer)
            state.filling.count += 1
            guard state.filling.count >= maxBatchSize else { return false }
            state.fullBatchBytes = state.filling.writer.count
            state.full.append(state.filling)
            state.filling = Batch(capacity: state.batchCapacity)
            return true
        }
        switch filled {
        case false: break
        case true: wakeWaiter()
        case nil: dropped(1)
        }
    }

    /// Counts `count` spans dropped after they left the queue (an export that failed).
    func drop(_ count: Int) { if count > 0 { dropped(count) } }

    /// Every span queued, in batches; the queue is then empty.
    func take() -> [Batch] {
        state.withLock { state in
            var batches = state.full
            if state.filling.count > 0 { batches.append(state.filling) }
            state.full = []
            state.filling = Batch(capacity: state.batchCapacity)
            state.queued = 0
            return batches
        }
    }

    /// Returns when a batch is full, `delay` has passed, the queue is closed or the task is cancelled.
    func waitForBatch(upTo delay: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await Task.sleep(for: delay)
                if !Task.isCancelled { self.wakeWaiter() }
            }
            group.addTask { await self.nextWake() }
            await group.next()
            group.cancelAll()
        }
    }

    /// Wakes the exporter for good: it takes what is left and stops.
    func close() { wakeWaiter(closing: true) }

    /// Whether ``close()`` was called.
    var isClosed: Bool { state.withLock { $0.closed } }

    private func wakeWaiter(closing: Bool = false) {
        let waiter = state.withLock { state in
            if closing { state.closed = true }
            return Self.wake(&state)
        }
        waiter?.resume()
    }

    private func nextWake() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    guard !state.woken, !state.closed, state.full.isEmpty else {
                        state.woken = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            wakeWaiter()
        }
    }

    /// The waiter to resume, taken; without one, the next wait returns at once.
    private static func wake(_ state: inout State) -> CheckedContinuation<Void, Never>? {
        guard let waiter = state.waiter else {
            state.woken = true
            return nil
        }
        state.waiter = nil
        return waiter
    }
}
