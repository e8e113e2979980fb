import PushgateKafka
import Synchronization

/// Where receipts go (SPEC 10.7): ``write(_:)`` returns once the receipt is stored.
public protocol ReceiptWriter: Sendable {
    /// Writes `receipt` and returns once it is acknowledged.
    /// - Throws: when it cannot be written (the worker then stops: the record stays uncommitted), or
    ///   `CancellationError` when the task is cancelled first (the receipt may still be written).
    func write(_ receipt: Receipt) async throws
}

/// Writes receipts to a Kafka topic through an idempotent producer (`acks=all`).
public struct KafkaReceiptWriter: ReceiptWriter {
    private let producer: KafkaProducer
    private let topic: String

    /// Creates a writer of `topic` through `producer`.
    public init(producer: KafkaProducer, topic: String) {
        self.producer = producer
        self.topic = topic
    }

    public func write(_ receipt: Receipt) async throws {
        let message = KafkaProducerMessage(
            topic: topic, key: receipt.keyBytes, value: receipt.value,
            headers: receipt.headers.map { KafkaHeader(name: $0.name, value: $0.value) })
        let acknowledgement = ReceiptAcknowledgement()
        // While librdkafka's queue is full, waits for room (backpressure) instead of failing.
        try await producer.produceWhenQueued(message) { acknowledgement.complete($0.map { _ in () }) }
        try await acknowledgement.value()
    }
}

/// The delivery report of one receipt, awaited once: its result, or the waiting task's cancellation
/// (shutdown abandons the wait, not the record, which librdkafka still writes or purges).
private final class ReceiptAcknowledgement: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<Void, any Error>)
        case done(Result<Void, any Error>)
    }

    private let state = Mutex(State.pending)

    /// The delivery report's result (any thread); later calls do nothing.
    func complete(_ result: Result<Void, KafkaError>) {
        finish(result.mapError { $0 as any Error })
    }

    /// Ends the wait with `result`, once.
    private func finish(_ result: Result<Void, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            switch state {
            case .pending:
                state = .done(result)
                return nil
            case .waiting(let continuation):
                state = .done(result)
                return continuation
            case .done:
                return nil
            }
        }
        waiter?.resume(with: result)
    }

    /// Waits for the result; throws it, or `CancellationError` when the task is cancelled first.
    func value() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now = state.withLock { state -> Result<Void, any Error>? in
                    switch state {
                    case .pending:
                        if Task.isCancelled { return .failure(CancellationError()) }
                        state = .waiting(continuation)
                        return nil
                    case .waiting:
                        return .failure(CancellationError())
                    case .done(let result):
                        return result
                    }
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            finish(.failure(CancellationError()))
        }
    }
}
