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
        // One answer: the delivery report, or the task's cancellation (shutdown abandons the wait, not the record).
        let waiter = ReceiptWaiter()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                waiter.set(continuation)
                if Task.isCancelled {
                    waiter.take()?.resume(throwing: CancellationError())
                    return
                }
                do throws(KafkaError) {
                    try producer.produce(message) { result in
                        switch result {
                        case .success: waiter.take()?.resume()
                        case .failure(let error): waiter.take()?.resume(throwing: error)
                        }
                    }
                } catch {
                    waiter.take()?.resume(throwing: error)
                }
            }
        } onCancel: {
            waiter.take()?.resume(throwing: CancellationError())
        }
    }
}

/// The continuation of one receipt's write, resumed once: by its delivery report or by cancellation.
private final class ReceiptWaiter: Sendable {
    private let continuation = Mutex<CheckedContinuation<Void, any Error>?>(nil)

    func set(_ continuation: CheckedContinuation<Void, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    /// The continuation, once: `nil` after the first call.
    func take() -> CheckedContinuation<Void, any Error>? {
        continuation.withLock { $0.take() }
    }
}
