import Dispatch
import Synchronization

/// Tracks, per assigned partition, which read records have all their outputs acknowledged, and so which
/// offset may be committed: the one after the longest run of finished records, in read order. A record
/// finished out of order waits for every earlier record of its partition.
///
/// Partitions are tracked per assignment epoch: records read under an earlier assignment of a partition
/// are refused, so nothing read before a rebalance is committed after it.
///
/// Its state is behind a mutex; a revocation waiting for records in flight sleeps on a semaphore that
/// finishing records signal.
package final class OffsetTracker: Sendable {
    /// One record being processed: where it came from, under which assignment, and its place in the
    /// partition's read order.
    package struct Ticket: Sendable {
        package let partition: KafkaTopicPartition
        package let epoch: UInt64
        package let offset: Int64
        /// The record's position among the records read from the partition under this assignment.
        package let sequence: Int
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

        package var inFlight: Int { offsets.count - head }

        /// Registers a record read under `epoch`; returns its sequence, or `nil` when the partition is
        /// tracked under another epoch or is being revoked. Called in place (`values[index].register`):
        /// reading `epoch` through the dictionary's getter first would copy the state and its arrays.
        mutating func register(offset: Int64, outputs: Int, epoch: UInt64) -> Int? {
            guard self.epoch == epoch, !revoking else { return nil }
            return append(offset: offset, outputs: outputs)
        }

        /// Registers a record; returns its sequence.
        mutating func append(offset: Int64, outputs: Int) -> Int {
            offsets.append(offset)
            remaining.append(outputs)
            let sequence = base + offsets.count - 1
            advance()
            return sequence
        }

        /// One output of the record at `sequence`, read under `epoch`, acknowledged; `true` when it was the
        /// record's last (`false` under another epoch).
        mutating func acknowledge(sequence: Int, epoch: UInt64) -> Bool {
            guard self.epoch == epoch else { return false }
            let index = sequence - base
            guard index >= head, index < remaining.count, remaining[index] > 0 else { return false }
            remaining[index] -= 1
            guard remaining[index] == 0 else { return false }
            advance()
            return true
        }

        /// The record at `sequence`, read under `epoch`, finished, whatever outputs it still counted;
        /// `false` if it already had, or under another epoch.
        mutating func finish(sequence: Int, epoch: UInt64) -> Bool {
            guard self.epoch == epoch else { return false }
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

    private typealias PartitionIndex = Dictionary<KafkaTopicPartition, PartitionState>.Index

    private struct State {
        /// Changed in place through `values` (which keeps every index valid), or by key through
        /// ``changePartitions(_:)``, which forgets `recent`.
        private(set) var partitions: [KafkaTopicPartition: PartitionState] = [:]
        /// The partition looked up last, and where it is: records come in runs of one partition, and
        /// comparing a partition costs less than hashing its topic name for every record.
        private var recent: (partition: KafkaTopicPartition, index: PartitionIndex)?
        var pipelineStopped = false
        /// Whether a revocation sleeps on `progress`, waiting for records in flight.
        var revocationWaits = false

        /// Whether a revocation waits and should look again; clears the flag.
        mutating func takeRevocationWaiting() -> Bool {
            defer { revocationWaits = false }
            return revocationWaits
        }

        /// Adds or removes partitions (by key, which may move the others).
        mutating func changePartitions(_ body: (inout [KafkaTopicPartition: PartitionState]) -> Void) {
            recent = nil
            body(&partitions)
        }

        /// Changes the state of `partition` in place; nil when it is not tracked.
        mutating func withPartition<Result>(
            _ partition: KafkaTopicPartition, _ body: (inout PartitionState) -> Result
        ) -> Result? {
            let index: PartitionIndex
            if let recent, recent.partition == partition {
                index = recent.index
            } else {
                guard let found = partitions.index(forKey: partition) else { return nil }
                index = found
                recent = (partition, found)
            }
            return body(&partitions.values[index])
        }

        /// Changes the state of every partition in place.
        mutating func withEachPartition(_ body: (KafkaTopicPartition, inout PartitionState) -> Void) {
            for index in partitions.indices { body(partitions.keys[index], &partitions.values[index]) }
        }
    }

    private let state = Mutex(State())
    /// Signalled when records finish (or the pipeline stops) while a revocation waits for them.
    private let progress = DispatchSemaphore(value: 0)

    /// Creates a tracker of no partition.
    package init() {}

    /// Starts tracking `assigned` partitions under `epoch`.
    package func assign(_ assigned: [KafkaTopicPartition], epoch: UInt64) {
        state.withLock { state in
            state.changePartitions { partitions in
                for partition in assigned { partitions[partition] = PartitionState(epoch: epoch) }
            }
        }
    }

    /// Whether `ticket`'s partition is still tracked under the ticket's assignment (being revoked
    /// counts: its records in flight are drained). A record whose ticket is no longer current must not
    /// be produced: its partition was revoked or lost, and its new owner reads it again.
    package func isCurrent(_ ticket: Ticket) -> Bool {
        state.withLock { $0.partitions[ticket.partition]?.epoch == ticket.epoch }
    }

    /// Registers a read record with `outputs` records to acknowledge; `nil` when the record belongs to
    /// an earlier assignment or a partition being revoked (it must then be skipped, not produced).
    package func begin(_ message: KafkaConsumerMessage, outputs: Int) -> Ticket? {
        state.withLock {
            Self.begin(
                message.topicPartition, offset: message.offset, epoch: message.assignmentEpoch, outputs: outputs,
                in: &$0)
        }
    }

    /// Registers the record at `offset` of `partition`, read under assignment `epoch`, as
    /// ``begin(_:outputs:)`` does.
    package func begin(_ partition: KafkaTopicPartition, offset: Int64, epoch: UInt64, outputs: Int) -> Ticket? {
        state.withLock { Self.begin(partition, offset: offset, epoch: epoch, outputs: outputs, in: &$0) }
    }

    private static func begin(
        _ partition: KafkaTopicPartition, offset: Int64, epoch: UInt64, outputs: Int, in state: inout State
    ) -> Ticket? {
        // The state is changed in place (never copied out and back, which copies its arrays).
        let registered = state.withPartition(partition) {
            $0.register(offset: offset, outputs: outputs, epoch: epoch)
        }
        guard let sequence = registered ?? nil else { return nil }
        return Ticket(partition: partition, epoch: epoch, offset: offset, sequence: sequence)
    }

    /// Marks one output of `ticket`'s record acknowledged; `true` when it was the record's last.
    @discardableResult
    package func acknowledge(_ ticket: Ticket) -> Bool {
        let (last, wake) = state.withLock { state -> (Bool, Bool) in
            let last =
                state.withPartition(ticket.partition) {
                    $0.acknowledge(sequence: ticket.sequence, epoch: ticket.epoch)
                } ?? false
            return (last, last && state.takeRevocationWaiting())
        }
        if wake { progress.signal() }
        return last
    }

    /// Marks the records of `tickets` finished, whatever outputs they still counted, under one lock.
    package func finish(_ tickets: [Ticket]) {
        let wake = state.withLock { state in
            var any = false
            for ticket in tickets {
                let finished = state.withPartition(ticket.partition) {
                    $0.finish(sequence: ticket.sequence, epoch: ticket.epoch)
                }
                any = finished == true || any
            }
            return any && state.takeRevocationWaiting()
        }
        if wake { progress.signal() }
    }

    /// The offsets that advanced since they were last taken, marked as being committed.
    package func takeCommittable() -> [KafkaTopicPartitionOffset] {
        state.withLock { state in
            var result: [KafkaTopicPartitionOffset] = []
            state.withEachPartition { partition, partitionState in
                guard let offset = partitionState.committable, offset != partitionState.committed else { return }
                partitionState.committed = offset
                result.append(KafkaTopicPartitionOffset(partition, offset: offset))
            }
            return result
        }
    }

    /// Forgets that `offsets` were committed, so the next ``takeCommittable()`` offers them again.
    package func commitFailed(_ offsets: [KafkaTopicPartitionOffset]) {
        state.withLock { state in
            for entry in offsets {
                state.withPartition(entry.topicPartition) { partition in
                    if partition.committed == entry.offset { partition.committed = nil }
                }
            }
        }
    }

    /// The pipeline has stopped: nothing in flight will finish any more (the producer is shut down), so
    /// revocations from now on (the consumer leaving its group) return at once, with what is finished,
    /// and a revocation waiting for records in flight stops waiting.
    package func pipelineDidStop() {
        let wake = state.withLock { state in
            state.pipelineStopped = true
            return state.takeRevocationWaiting()
        }
        if wake { progress.signal() }
    }

    /// Stops tracking `revoked`: refuses their new records, waits up to `timeout` for their records in
    /// flight (not at all once the pipeline has stopped), and returns the offsets to commit for them.
    /// Called on the consumer's poll thread; only one revocation runs at a time.
    /// With `serve`, the wait is spent serving what finishes records (a producer's delivery reports on
    /// the same thread), up to the given time per call, instead of sleeping.
    package func revoke(
        _ revoked: [KafkaTopicPartition], waitingUpTo timeout: Duration,
        serving serve: (@Sendable (Duration) -> Void)? = nil
    ) -> [KafkaTopicPartitionOffset] {
        let deadline = ContinuousClock.now + timeout
        state.withLock { state in
            for partition in revoked { state.withPartition(partition) { $0.revoking = true } }
        }
        while true {
            let drained = state.withLock { state in
                let drained = state.pipelineStopped || !revoked.contains { (state.partitions[$0]?.inFlight ?? 0) > 0 }
                state.revocationWaits = !drained
                return drained
            }
            let remaining = deadline - ContinuousClock.now
            if drained || remaining <= .zero { break }
            if let serve {
                serve(min(remaining, .milliseconds(10)))
                continue
            }
            let nanoseconds =
                remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000
            _ = progress.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
        }
        let result: [KafkaTopicPartitionOffset] = state.withLock { state in
            state.revocationWaits = false
            var result: [KafkaTopicPartitionOffset] = []
            state.changePartitions { partitions in
                for partition in revoked {
                    if let offset = partitions[partition]?.committable {
                        result.append(KafkaTopicPartitionOffset(partition, offset: offset))
                    }
                    partitions[partition] = nil
                }
            }
            return result
        }
        // A wake-up signalled after the last look would end the next revocation's first wait early;
        // that revocation looks again, so it is harmless.
        return result
    }

    /// How many records are in flight in all partitions.
    package var inFlight: Int { state.withLock { $0.partitions.values.reduce(0) { $0 + $1.inFlight } } }
}

/// Connects a consumer's rebalances to an ``OffsetTracker``.
package struct OffsetTrackingRebalanceListener: KafkaRebalanceListener {
    package let tracker: OffsetTracker
    package let revokeDrainTimeout: Duration
    /// What finishes records while a revocation waits for them, when it must run on the waiting thread
    /// (``OffsetTracker/revoke(_:waitingUpTo:serving:)``).
    package var serveWhileDraining: (@Sendable (Duration) -> Void)? = nil

    /// Creates the listener of `tracker`.
    package init(
        tracker: OffsetTracker, revokeDrainTimeout: Duration,
        serveWhileDraining: (@Sendable (Duration) -> Void)? = nil
    ) {
        self.tracker = tracker
        self.revokeDrainTimeout = revokeDrainTimeout
        self.serveWhileDraining = serveWhileDraining
    }

    package func partitionsAssigned(_ partitions: [KafkaTopicPartition], epoch: UInt64) {
        tracker.assign(partitions, epoch: epoch)
    }

    package func partitionsRevoked(_ partitions: [KafkaTopicPartition], lost: Bool) -> [KafkaTopicPartitionOffset] {
        tracker.revoke(partitions, waitingUpTo: lost ? .zero : revokeDrainTimeout, serving: serveWhileDraining)
    }
}
