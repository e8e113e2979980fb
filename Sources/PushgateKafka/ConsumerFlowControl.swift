import CRdKafka
import Logging
import Synchronization

/// Pauses a consumer's assigned partitions while the application cannot take more records, and resumes
/// them when it can: the poll thread keeps calling `rd_kafka_consumer_poll` meanwhile, so the member
/// keeps its place in the group however long the pipeline is blocked (an output outage longer than
/// `max.poll.interval.ms` does not get it kicked out).
///
/// librdkafka resumes a paused partition from the position after the last record the application was
/// given, so nothing is skipped or read twice. Pausing drops what librdkafka has prefetched for the
/// partitions (it is fetched again on resume, loading the brokers), so a pipeline that is full for a
/// while, as a bounded pipeline often is under load, is not paused: only one full for ``pauseAfter``,
/// a third of `max.poll.interval.ms` (between 1 and 60 s), which leaves the member time to poll.
///
/// Only the consumer's poll thread uses it; its state is behind a mutex that is never contended.
final class ConsumerFlowControl: Sendable {
    /// How long the application must stay full before the assignment is paused.
    let pauseAfter: Duration

    private struct State {
        var paused: Set<KafkaTopicPartition> = []
        var fullSince: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let logger: Logger

    /// Creates the flow control of a consumer whose `max.poll.interval.ms` is `maxPollIntervalMs`.
    init(maxPollIntervalMs: Int, logger: Logger) {
        self.pauseAfter = .milliseconds(min(max(maxPollIntervalMs / 3, 1000), 60_000))
        self.logger = logger
    }

    /// Whether the assignment is paused.
    var isPaused: Bool { state.withLock { !$0.paused.isEmpty } }

    /// The application has no room: `true` when the poll thread should poll anyway, having paused the
    /// assignment (full for ``pauseAfter`` already); `false` when it should wait for room.
    func noRoom(handle: OpaquePointer) -> Bool {
        let now = ContinuousClock.now
        let pauseAfter = self.pauseAfter
        let fullLongEnough = state.withLock { state in
            guard let since = state.fullSince else {
                state.fullSince = now
                return false
            }
            return now - since >= pauseAfter
        }
        guard fullLongEnough else { return false }
        pause(handle: handle)
        return true
    }

    /// The application has room: resumes the assignment if it was paused.
    func room(handle: OpaquePointer) {
        state.withLock { $0.fullSince = nil }
        resume(handle: handle)
    }

    /// Pauses the assigned partitions not paused yet (a partition assigned by a rebalance while paused
    /// starts unpaused). Each partition is paused once: repeated pauses of a paused partition are
    /// reported to confuse librdkafka (librdkafka issue 1802).
    private func pause(handle: OpaquePointer) {
        let assigned = assignment(handle)
        let (newlyPaused, wasRunning) = state.withLock { state in
            let newlyPaused = assigned.filter { !state.paused.contains($0) }
            defer { state.paused.formUnion(newlyPaused) }
            return (newlyPaused, state.paused.isEmpty)
        }
        guard !newlyPaused.isEmpty else { return }
        let list = RDKafkaTopicPartitionList.make(
            newlyPaused.map { KafkaTopicPartitionOffset($0, offset: Int64(RD_KAFKA_OFFSET_INVALID)) })
        defer { rd_kafka_topic_partition_list_destroy(list) }
        _ = rd_kafka_pause_partitions(handle, list)
        if wasRunning {
            logger.info(
                "input paused: the pipeline has been full for \(pauseAfter) (outputs not acknowledged); still polling the group"
            )
        }
    }

    /// Resumes the partitions this paused that are still assigned.
    private func resume(handle: OpaquePointer) {
        let paused = state.withLock { state in
            defer { state.paused.removeAll() }
            return state.paused
        }
        guard !paused.isEmpty else { return }
        let stillAssigned = assignment(handle).filter { paused.contains($0) }
        logger.info("input resumed")
        guard !stillAssigned.isEmpty else { return }
        let list = RDKafkaTopicPartitionList.make(
            stillAssigned.map { KafkaTopicPartitionOffset($0, offset: Int64(RD_KAFKA_OFFSET_INVALID)) })
        defer { rd_kafka_topic_partition_list_destroy(list) }
        _ = rd_kafka_resume_partitions(handle, list)
    }

    private func assignment(_ handle: OpaquePointer) -> [KafkaTopicPartition] {
        var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
        guard rd_kafka_assignment(handle, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return [] }
        defer { rd_kafka_topic_partition_list_destroy(list) }
        return RDKafkaTopicPartitionList.offsets(of: list).map(\.topicPartition)
    }
}
