import PushgateKafka
import Synchronization

/// What the health endpoints report about a ``PushWorker``: alive (no fatal error) and ready (in the
/// group with partitions, producer connected, not draining). Updated by the worker from any thread.
public final class WorkerHealth: Sendable {
    private struct State {
        var assignedPartitions: Set<KafkaTopicPartition> = []
        var producerConnected = false
        var draining = false
        var fatal: String?
    }

    private let state = Mutex(State())

    /// Creates the state of a worker that has not started.
    public init() {}

    /// `nil` while alive; otherwise the fatal error that stops the worker.
    public var fatalError: String? { state.withLock { $0.fatal } }

    /// Whether the worker is alive: no fatal error was reported.
    public var isAlive: Bool { fatalError == nil }

    /// Why the worker is not ready, or `nil` when it is ready: in its group with at least one partition
    /// assigned, its producer connected, and not draining for shutdown.
    public var notReadyReason: String? {
        state.withLock { state in
            if let fatal = state.fatal { return "fatal error: \(fatal)" }
            if state.draining { return "draining for shutdown" }
            if !state.producerConnected { return "producer not connected yet" }
            if state.assignedPartitions.isEmpty { return "no partition assigned (not in the group yet)" }
            return nil
        }
    }

    /// How many partitions are assigned now.
    public var assignedPartitionCount: Int { state.withLock { $0.assignedPartitions.count } }

    func assigned(_ partitions: [KafkaTopicPartition]) {
        state.withLock { $0.assignedPartitions.formUnion(partitions) }
    }

    func revoked(_ partitions: [KafkaTopicPartition]) {
        state.withLock { $0.assignedPartitions.subtract(partitions) }
    }

    func producerDidConnect() { state.withLock { $0.producerConnected = true } }

    /// Marks the worker as draining: ``notReadyReason`` is no longer `nil`.
    public func startDraining() { state.withLock { $0.draining = true } }

    /// Records a fatal error (the first one is kept).
    public func fail(_ reason: String) {
        state.withLock { state in
            if state.fatal == nil { state.fatal = reason }
        }
    }
}

/// Forwards rebalance events to the worker's offset tracking listener and keeps ``WorkerHealth``'s
/// assignment up to date.
struct HealthTrackingRebalanceListener: KafkaRebalanceListener {
    let wrapped: any KafkaRebalanceListener
    let health: WorkerHealth

    func partitionsAssigned(_ partitions: [KafkaTopicPartition], epoch: UInt64) {
        wrapped.partitionsAssigned(partitions, epoch: epoch)
        health.assigned(partitions)
    }

    func partitionsRevoked(_ partitions: [KafkaTopicPartition], lost: Bool) -> [KafkaTopicPartitionOffset] {
        health.revoked(partitions)
        return wrapped.partitionsRevoked(partitions, lost: lost)
    }
}
