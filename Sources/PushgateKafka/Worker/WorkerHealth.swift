import Synchronization

/// What the health endpoints report about a worker (`pushgate run`'s or `pushgate deliver`'s): alive (no
/// fatal error) and ready (in the group with partitions, producer connected, not draining, and every
/// readiness check of the worker passing). Updated by the worker from any thread.
public final class WorkerHealth: Sendable {
    private struct State {
        var assignedPartitions: Set<KafkaTopicPartition> = []
        var producerConnected = false
        var draining = false
        var fatal: String?
        var readinessChecks: [@Sendable () -> String?] = []
    }

    private let state = Mutex(State())

    /// Creates the state of a worker that has not started.
    public init() {}

    /// `nil` while alive; otherwise the fatal error that stops the worker.
    public var fatalError: String? { state.withLock { $0.fatal } }

    /// Whether the worker is alive: no fatal error was reported.
    public var isAlive: Bool { fatalError == nil }

    /// Why the worker is not ready, or `nil` when it is ready: not draining for shutdown, every readiness
    /// check passing (they come first: what they wait for comes before the group), its producer connected,
    /// and in its group with at least one partition assigned.
    public var notReadyReason: String? {
        let (reason, checks) = state.withLock { state -> (String?, [@Sendable () -> String?]) in
            if let fatal = state.fatal { return ("fatal error: \(fatal)", []) }
            if state.draining { return ("draining for shutdown", []) }
            return (nil, state.readinessChecks)
        }
        if let reason { return reason }
        for check in checks {
            if let reason = check() { return reason }
        }
        return state.withLock { state in
            if !state.producerConnected { return "producer not connected yet" }
            if state.assignedPartitions.isEmpty { return "no partition assigned (not in the group yet)" }
            return nil
        }
    }

    /// Adds a condition of readiness: `check` says why the worker is not ready, or `nil` when, as far as it
    /// knows, it is (`pushgate deliver`: the directory read up to its end, no platform paused). Checks run
    /// in the order added, outside the health's lock; keep them short and never block.
    public func addReadinessCheck(_ check: @escaping @Sendable () -> String?) {
        state.withLock { $0.readinessChecks.append(check) }
    }

    /// How many partitions are assigned now.
    public var assignedPartitionCount: Int { state.withLock { $0.assignedPartitions.count } }

    package func assigned(_ partitions: [KafkaTopicPartition]) {
        state.withLock { $0.assignedPartitions.formUnion(partitions) }
    }

    package func revoked(_ partitions: [KafkaTopicPartition]) {
        state.withLock { $0.assignedPartitions.subtract(partitions) }
    }

    package func producerDidConnect() { state.withLock { $0.producerConnected = true } }

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
package struct HealthTrackingRebalanceListener: KafkaRebalanceListener {
    package let wrapped: any KafkaRebalanceListener
    package let health: WorkerHealth

    /// Creates the listener forwarding to `wrapped`.
    package init(wrapped: any KafkaRebalanceListener, health: WorkerHealth) {
        self.wrapped = wrapped
        self.health = health
    }

    package func partitionsAssigned(_ partitions: [KafkaTopicPartition], epoch: UInt64) {
        wrapped.partitionsAssigned(partitions, epoch: epoch)
        health.assigned(partitions)
    }

    package func partitionsRevoked(_ partitions: [KafkaTopicPartition], lost: Bool) -> [KafkaTopicPartitionOffset] {
        health.revoked(partitions)
        return wrapped.partitionsRevoked(partitions, lost: lost)
    }
}
