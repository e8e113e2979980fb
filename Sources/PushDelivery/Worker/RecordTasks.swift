import PushgateKafka
import Synchronization

/// The tasks of the records in flight, by partition, so that a shutdown past its budget can cancel them
/// all, and a revocation those of its partitions (their pushes are then abandoned, their records left
/// uncommitted for the partition's next owner).
final class RecordTasks: Sendable {
    private struct State {
        var tasks: [UInt64: (partition: KafkaTopicPartition, task: Task<Void, Never>)] = [:]
        var next: UInt64 = 0
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Runs `body` in a task of its own, kept under `partition` until it ends.
    func start(_ partition: KafkaTopicPartition, _ body: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            state.next += 1
            let id = state.next
            // The task removes itself under the lock, so after its entry is added below.
            let task = Task { [weak self] in
                await body()
                self?.ended(id)
            }
            state.tasks[id] = (partition, task)
            if state.cancelled { task.cancel() }
        }
    }

    /// Cancels every task running, and those started from now on.
    func cancelAll() {
        let tasks = state.withLock { state in
            state.cancelled = true
            return state.tasks.values.map(\.task)
        }
        for task in tasks { task.cancel() }
    }

    /// Cancels the tasks of records of `partitions`.
    func cancel(_ partitions: [KafkaTopicPartition]) {
        let revoked = Set(partitions)
        let tasks = state.withLock { state in
            state.tasks.values.filter { revoked.contains($0.partition) }.map(\.task)
        }
        for task in tasks { task.cancel() }
    }

    /// How many tasks are running.
    var count: Int { state.withLock { $0.tasks.count } }

    private func ended(_ id: UInt64) {
        _ = state.withLock { $0.tasks.removeValue(forKey: id) }
    }
}

/// After a revocation has committed what its partitions finished (``OffsetTrackingRebalanceListener``),
/// cancels their records still in flight: the partitions' next owner delivers them again, so going on
/// would only send twice.
struct RecordCancellingRebalanceListener: KafkaRebalanceListener {
    let wrapped: any KafkaRebalanceListener
    let tasks: RecordTasks

    func partitionsAssigned(_ partitions: [KafkaTopicPartition], epoch: UInt64) {
        wrapped.partitionsAssigned(partitions, epoch: epoch)
    }

    func partitionsRevoked(_ partitions: [KafkaTopicPartition], lost: Bool) -> [KafkaTopicPartitionOffset] {
        let offsets = wrapped.partitionsRevoked(partitions, lost: lost)
        tasks.cancel(partitions)
        return offsets
    }
}
