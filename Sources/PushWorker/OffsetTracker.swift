import Foundation
import Kafka
import Synchronization

/// Tracks, per assigned partition, which read records have all their outputs acknowledged, and so which
/// offset may be committed: the one after the longest run of finished records, in read order. A record
/// finished out of order waits for every earlier record of its partition.
///
/// Partitions are tracked per assignment epoch: records read under an earlier assignment of a partition
/// are refused, so nothing read before a rebalance is committed after it.
///
/// `@unchecked Sendable` is safe because all mutable state is guarded by `condition`.
final class OffsetTracker: @unchecked Sendable {
    /// One record being processed: where it came from, under which assignment, and its place in the
    /// partition's read order.
    struct Ticket: Sendable {
        let partition: KafkaTopicPartition
        let epoch: UInt64
        let offset: Int64
        /// The record's position among the records read from the partition under this assignment.
        let sequence: Int
    }

    /// One assigned partition's records in flight, in read order: parallel arrays indexed by
    /// `sequence - base`, so that registering and acknowledging a record hash nothing.
    private struct PartitionState {
        var epoch: UInt64
        var revoking = false
        var offsets: [Int64] = []
        var remaining: [Int] = []
        var base = 0
        var head = 0
        var committable: Int64?
        var committed: Int64?

        var inFlight: Int { offsets.count - head }

        /// Registers a record; returns its sequence.
        mutating func append(offset: Int64, outputs: Int) -> Int {
            offsets.append(offset)
            remaining.append(outputs)
            let sequence = base + offsets.count - 1
            advance()
            return sequence
        }

        /// One output of the record at `sequence` acknowledged; `true` when it was the record's last.
        mutating func acknowledge(sequence: Int) -> Bool {
            let index = sequence - base
            guard index >= head, index < remaining.count, remaining[index] > 0 else { return false }
            remaining[index] -= 1
            guard remaining[index] == 0 else { return false }
            advance()
            return true
        }

        /// The record at `sequence` finished, whatever outputs it still counted; `false` if it already had.
        mutating func finish(sequence: Int) -> Bool {
            let index = sequence - base
            guard index >= head, index < remaining.count, remaining[index] > 0 else { return false }
            remaining[index] = 0
            advance()
            return true
        }

        private mutating func advance() {
            while head < offsets.count, remaining[head] == 0 {
                committable = offsets[head] + 1
                head += 1
            }
            if head > 4096, head * 2 > offsets.count {
                offsets.removeFirst(head)
                remaining.removeFirst(head)
                base += head
                head = 0
            }
        }
    }

    private let condition = NSCondition()
    private var partitions: [KafkaTopicPartition: PartitionState] = [:]
    private var pipelineStopped = false
    private let changes = Atomic<UInt64>(0)

    /// Counts assignments and revocations: while it has not changed since a ticket was issued, the ticket
    /// is current (``isCurrent(_:)``) without taking the lock.
    var generation: UInt64 { changes.load(ordering: .acquiring) }

    /// Starts tracking `assigned` partitions under `epoch`.
    func assign(_ assigned: [KafkaTopicPartition], epoch: UInt64) {
        condition.withLock {
            for partition in assigned { partitions[partition] = PartitionState(epoch: epoch) }
            changes.add(1, ordering: .releasing)
        }
    }

    /// Whether `ticket`'s partition is still tracked under the ticket's assignment (being revoked
    /// counts: its records in flight are drained). A record whose ticket is no longer current must not
    /// be produced: its partition was revoked or lost, and its new owner reads it again.
    func isCurrent(_ ticket: Ticket) -> Bool {
        condition.withLock { partitions[ticket.partition]?.epoch == ticket.epoch }
    }

    /// Registers a read record with `outputs` records to acknowledge; `nil` when the record belongs to
    /// an earlier assignment or a partition being revoked (it must then be skipped, not produced).
    func begin(_ message: KafkaConsumerMessage, outputs: Int) -> Ticket? {
        condition.withLock { beginLocked(message, outputs: outputs) }
    }

    /// Registers read records, in order, each with its count of outputs, under one lock; each ticket as
    /// ``begin(_:outputs:)`` gives it.
    func begin(_ messages: [KafkaConsumerMessage], outputs: (Int) -> Int) -> [Ticket?] {
        messages.withUnsafeBufferPointer { messages in
            condition.withLock { messages.indices.map { beginLocked(messages[$0], outputs: outputs($0)) } }
        }
    }

    private func beginLocked(_ message: KafkaConsumerMessage, outputs: Int) -> Ticket? {
        let partition = message.topicPartition
        // One lookup; the state is changed in place (never copied out and back, which copies its arrays).
        guard let index = partitions.index(forKey: partition), partitions.values[index].epoch == message.assignmentEpoch,
            !partitions.values[index].revoking
        else { return nil }
        let sequence = partitions.values[index].append(offset: message.offset, outputs: outputs)
        return Ticket(partition: partition, epoch: message.assignmentEpoch, offset: message.offset, sequence: sequence)
    }

    /// Marks one output of `ticket`'s record acknowledged; `true` when it was the record's last.
    @discardableResult
    func acknowledge(_ ticket: Ticket) -> Bool {
        condition.withLock {
            guard let index = partitions.index(forKey: ticket.partition), partitions.values[index].epoch == ticket.epoch
            else { return false }
            let last = partitions.values[index].acknowledge(sequence: ticket.sequence)
            if last { condition.broadcast() }
            return last
        }
    }

    /// Marks the records of `tickets` finished, whatever outputs they still counted, under one lock.
    func finish(_ tickets: [Ticket]) {
        condition.withLock {
            var any = false
            for ticket in tickets {
                guard let index = partitions.index(forKey: ticket.partition), partitions.values[index].epoch == ticket.epoch
                else { continue }
                any = partitions.values[index].finish(sequence: ticket.sequence) || any
            }
            if any { condition.broadcast() }
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

    /// The pipeline has stopped: nothing in flight will finish any more (the producer is shut down), so
    /// revocations from now on (the consumer leaving its group) return at once, with what is finished,
    /// and a revocation waiting for records in flight stops waiting.
    func pipelineDidStop() {
        condition.withLock {
            pipelineStopped = true
            condition.broadcast()
        }
    }

    /// Stops tracking `revoked`: refuses their new records, waits up to `timeout` for their records in
    /// flight (not at all once the pipeline has stopped), and returns the offsets to commit for them.
    func revoke(_ revoked: [KafkaTopicPartition], waitingUpTo timeout: Duration) -> [KafkaTopicPartitionOffset] {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        for partition in revoked { partitions[partition]?.revoking = true }
        while !pipelineStopped, revoked.contains(where: { (partitions[$0]?.inFlight ?? 0) > 0 }) {
            if !condition.wait(until: deadline) { break }
        }
        var result: [KafkaTopicPartitionOffset] = []
        for partition in revoked {
            if let offset = partitions[partition]?.committable { result.append(KafkaTopicPartitionOffset(partition, offset: offset)) }
            partitions[partition] = nil
        }
        changes.add(1, ordering: .releasing)
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
