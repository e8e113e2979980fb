import Foundation
import Kafka

/// Tracks, per assigned partition, which read records have all their outputs acknowledged, and so which
/// offset may be committed: the one after the longest run of finished records, in read order. A record
/// finished out of order waits for every earlier record of its partition.
///
/// Partitions are tracked per assignment epoch: records read under an earlier assignment of a partition
/// are refused, so nothing read before a rebalance is committed after it.
///
/// `@unchecked Sendable` is safe because all mutable state is guarded by `condition`.
final class OffsetTracker: @unchecked Sendable {
    /// One record being processed: where it came from and under which assignment.
    struct Ticket: Sendable {
        let partition: KafkaTopicPartition
        let epoch: UInt64
        let offset: Int64
    }

    private struct PartitionState {
        var epoch: UInt64
        var revoking = false
        var order: [Int64] = []
        var head = 0
        var remaining: [Int64: Int] = [:]
        var committable: Int64?
        var committed: Int64?

        var inFlight: Int { order.count - head }

        mutating func advance() {
            while head < order.count, remaining[order[head]] == 0 {
                committable = order[head] + 1
                remaining[order[head]] = nil
                head += 1
            }
            if head > 4096 {
                order.removeFirst(head)
                head = 0
            }
        }
    }

    private let condition = NSCondition()
    private var partitions: [KafkaTopicPartition: PartitionState] = [:]

    /// Starts tracking `assigned` partitions under `epoch`.
    func assign(_ assigned: [KafkaTopicPartition], epoch: UInt64) {
        condition.withLock {
            for partition in assigned { partitions[partition] = PartitionState(epoch: epoch) }
        }
    }

    /// Registers a read record with `outputs` records to acknowledge; `nil` when the record belongs to
    /// an earlier assignment or a partition being revoked (it must then be skipped, not produced).
    func begin(_ message: KafkaConsumerMessage, outputs: Int) -> Ticket? {
        let partition = message.topicPartition
        return condition.withLock {
            guard var state = partitions[partition], state.epoch == message.assignmentEpoch, !state.revoking else {
                return nil
            }
            state.order.append(message.offset)
            state.remaining[message.offset] = outputs
            state.advance()
            partitions[partition] = state
            return Ticket(partition: partition, epoch: state.epoch, offset: message.offset)
        }
    }

    /// Marks one output of `ticket`'s record acknowledged; `true` when it was the record's last.
    @discardableResult
    func acknowledge(_ ticket: Ticket) -> Bool {
        condition.withLock {
            guard var state = partitions[ticket.partition], state.epoch == ticket.epoch,
                let left = state.remaining[ticket.offset], left > 0
            else { return false }
            state.remaining[ticket.offset] = left - 1
            state.advance()
            partitions[ticket.partition] = state
            if left == 1 { condition.broadcast() }
            return left == 1
        }
    }

    /// The offsets that advanced since they were last taken, marked as being committed.
    func takeCommittable() -> [KafkaTopicPartitionOffset] {
        condition.withLock {
            var result: [KafkaTopicPartitionOffset] = []
            for (partition, state) in partitions {
                guard let offset = state.committable, offset != state.committed else { continue }
                partitions[partition]?.committed = offset
                result.append(KafkaTopicPartitionOffset(partition, offset: offset))
            }
            return result
        }
    }

    /// Forgets that `offsets` were committed, so the next ``takeCommittable()`` offers them again.
    func commitFailed(_ offsets: [KafkaTopicPartitionOffset]) {
        condition.withLock {
            for entry in offsets where partitions[entry.topicPartition]?.committed == entry.offset {
                partitions[entry.topicPartition]?.committed = nil
            }
        }
    }

    /// Stops tracking `revoked`: refuses their new records, waits up to `timeout` for their records in
    /// flight, and returns the offsets to commit for them.
    func revoke(_ revoked: [KafkaTopicPartition], waitingUpTo timeout: Duration) -> [KafkaTopicPartitionOffset] {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        for partition in revoked { partitions[partition]?.revoking = true }
        while revoked.contains(where: { (partitions[$0]?.inFlight ?? 0) > 0 }) {
            if !condition.wait(until: deadline) { break }
        }
        var result: [KafkaTopicPartitionOffset] = []
        for partition in revoked {
            if let offset = partitions[partition]?.committable { result.append(KafkaTopicPartitionOffset(partition, offset: offset)) }
            partitions[partition] = nil
        }
        return result
    }

    /// How many records are in flight in all partitions.
    var inFlight: Int { condition.withLock { partitions.values.reduce(0) { $0 + $1.inFlight } } }
}

/// Connects a consumer's rebalances to an ``OffsetTracker``.
struct OffsetTrackingRebalanceListener: KafkaRebalanceListener {
    let tracker: OffsetTracker
    let revokeDrainTimeout: Duration

    func partitionsAssigned(_ partitions: [KafkaTopicPartition], epoch: UInt64) {
        tracker.assign(partitions, epoch: epoch)
    }

    func partitionsRevoked(_ partitions: [KafkaTopicPartition], lost: Bool) -> [KafkaTopicPartitionOffset] {
        tracker.revoke(partitions, waitingUpTo: lost ? .zero : revokeDrainTimeout)
    }
}
