import CRdKafka
import Foundation
import Logging
import Synchronization

/// The consumer's view of its group assignment: which partitions it owns and their assignment epochs.
/// Handles librdkafka's rebalance callback (eager `assign` or cooperative `incremental_assign`, whichever
/// protocol the group uses) and commits explicit offsets.
///
/// Every method runs on the consumer's poll thread (the rebalance callback is served from
/// `rd_kafka_consumer_poll` and `rd_kafka_consumer_close`, which only that thread calls, and commits are
/// queued onto it), so the mutex around the epochs is never contended; it is never held while librdkafka
/// or the listener is called.
final class ConsumerGroupMembership: Sendable {
    private struct Epochs {
        var byPartition: [KafkaTopicPartition: UInt64] = [:] {
            didSet { recent = nil }
        }
        var last: UInt64 = 0
        /// The partition asked for last, and its epoch: records come in runs of one partition, and
        /// comparing a partition costs less than hashing its topic name for every record.
        var recent: (partition: KafkaTopicPartition, epoch: UInt64)?

        mutating func epoch(of partition: KafkaTopicPartition) -> UInt64 {
            if let recent, recent.partition == partition { return recent.epoch }
            let epoch = byPartition[partition] ?? 0
            recent = (partition, epoch)
            return epoch
        }
    }

    private let epochs = Mutex(Epochs())
    private let listener: (any KafkaRebalanceListener)?
    private let logger: Logger
    /// Longest a commit waits for the coordinator's answer, in milliseconds.
    private let commitTimeoutMs: Int32

    init(listener: (any KafkaRebalanceListener)?, commitTimeoutMs: Int32 = 10_000, logger: Logger) {
        self.listener = listener
        self.commitTimeoutMs = commitTimeoutMs
        self.logger = logger
    }

    /// The assignment epoch of `partition`, 0 when it is not assigned.
    func epoch(of partition: KafkaTopicPartition) -> UInt64 { epochs.withLock { $0.epoch(of: partition) } }

    /// The partitions currently assigned.
    var assignedPartitions: [KafkaTopicPartition] { epochs.withLock { Array($0.byPartition.keys) } }

    func rebalance(
        handle: OpaquePointer, event: rd_kafka_resp_err_t, list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>
    ) {
        let partitions = RDKafkaTopicPartitionList.offsets(of: list).map(\.topicPartition)
        let cooperative = rd_kafka_rebalance_protocol(handle).map { String(cString: $0) } == "COOPERATIVE"
        switch event {
        case RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS:
            let epoch = epochs.withLock { epochs in
                epochs.last += 1
                for partition in partitions { epochs.byPartition[partition] = epochs.last }
                return epochs.last
            }
            logger.info("partitions assigned: \(partitions.map(\.description).sorted().joined(separator: ", "))")
            listener?.partitionsAssigned(partitions, epoch: epoch)
            if cooperative {
                if let error = rd_kafka_incremental_assign(handle, list) {
                    logger.error("assign: \(KafkaError(consuming: error))")
                }
            } else {
                let code = rd_kafka_assign(handle, list)
                if code != RD_KAFKA_RESP_ERR_NO_ERROR { logger.error("assign: \(KafkaError(code))") }
            }
        case RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS:
            let lost = rd_kafka_assignment_lost(handle) != 0
            logger.info(
                "partitions \(lost ? "lost" : "revoked"): \(partitions.map(\.description).sorted().joined(separator: ", "))"
            )
            let offsets = listener?.partitionsRevoked(partitions, lost: lost) ?? []
            if !lost, !offsets.isEmpty { commitBeforeRevoke(offsets, handle: handle) }
            epochs.withLock { epochs in
                for partition in partitions { epochs.byPartition[partition] = nil }
            }
            if cooperative {
                if let error = rd_kafka_incremental_unassign(handle, list) {
                    logger.error("unassign: \(KafkaError(consuming: error))")
                }
            } else {
                _ = rd_kafka_assign(handle, nil)
            }
        default:
            // librdkafka could not complete the rebalance: give up everything this member holds, as lost
            // (not committed: another member may own it already), the way its protocol requires.
            logger.error("rebalance failed: \(KafkaError(event)); dropping the assignment")
            let held = assignedPartitions
            if !held.isEmpty { _ = listener?.partitionsRevoked(held, lost: true) }
            epochs.withLock { $0.byPartition.removeAll() }
            switch Self.recoveryAfterFailedRebalance(cooperative: cooperative) {
            case .incrementalUnassignCurrent:
                var current: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
                if rd_kafka_assignment(handle, &current) == RD_KAFKA_RESP_ERR_NO_ERROR, let current {
                    defer { rd_kafka_topic_partition_list_destroy(current) }
                    if current.pointee.cnt > 0, let error = rd_kafka_incremental_unassign(handle, current) {
                        logger.error("unassign: \(KafkaError(consuming: error))")
                    }
                }
            case .assignNone:
                _ = rd_kafka_assign(handle, nil)
            }
        }
    }

    /// How a member drops its assignment after a failed rebalance.
    enum Recovery: Equatable {
        /// Eager protocol: `rd_kafka_assign(handle, NULL)`.
        case assignNone
        /// Cooperative protocol, where eager `assign` is an error: `rd_kafka_incremental_unassign` of the
        /// current assignment.
        case incrementalUnassignCurrent
    }

    /// The call that drops the assignment under the group's protocol.
    static func recoveryAfterFailedRebalance(cooperative: Bool) -> Recovery {
        cooperative ? .incrementalUnassignCurrent : .assignNone
    }

    /// Commits before giving partitions up, once, waiting at most the commit timeout: with the coordinator
    /// unreachable, librdkafka would retry a synchronous commit for as long as the outage lasts, and the
    /// rebalance (or the group leave of a shutdown) would wait with it. A commit given up here is only
    /// abandoned, not withdrawn: it may still land later, or not, and the next owner then reads again the
    /// records finished since the last commit that did (at least once holds either way). The rebalance
    /// goes on as it must: the partitions are unassigned right after.
    private func commitBeforeRevoke(_ offsets: [KafkaTopicPartitionOffset], handle: OpaquePointer) {
        do throws(KafkaError) {
            try commit(offsets, handle: handle)
        } catch {
            logger.warning("commit before revoke failed, the next owner reads those records again: \(error)")
        }
    }

    /// Commits `offsets`, skipping partitions this consumer no longer owns, and waits for the answer at
    /// most `timeoutMs`, never longer than the commit timeout.
    /// - Throws: ``KafkaError`` with the broker's error, or `_TIMED_OUT` when no answer came in time (the
    ///   request is abandoned, and may still be carried out).
    func commit(_ offsets: [KafkaTopicPartitionOffset], handle: OpaquePointer, timeoutMs: Int32? = nil)
        throws(KafkaError)
    {
        let owned = epochs.withLock { epochs in offsets.filter { epochs.byPartition[$0.topicPartition] != nil } }
        guard !owned.isEmpty else { return }
        try RDKafkaBoundedCommit.commit(
            owned, handle: handle, timeoutMs: min(timeoutMs ?? commitTimeoutMs, commitTimeoutMs))
        logger.debug("committed \(owned.map(\.description).joined(separator: ", "))")
    }
}
