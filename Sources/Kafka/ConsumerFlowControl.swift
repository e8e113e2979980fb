import CRdKafka
import Logging

/// Pauses a consumer's assigned partitions while the application cannot take more records, and resumes
/// them when it can: the poll thread keeps calling `rd_kafka_consumer_poll` meanwhile, so the member
/// keeps its place in the group however long the pipeline is blocked (an output outage longer than
/// `max.poll.interval.ms` does not get it kicked out).
///
/// librdkafka resumes a paused partition from the position after the last record the application was
/// given, so nothing is skipped or read twice. Pausing drops what librdkafka has prefetched for the
/// partitions (it is fetched again on resume), so a pipeline that is only full for a moment, as a
/// bounded pipeline is all the time under load, is not paused: only one full for ``pauseAfter``.
///
/// `@unchecked Sendable` is safe because only the consumer's poll thread uses it.
final class ConsumerFlowControl: @unchecked Sendable {
    /// How long the application must stay full before the assignment is paused: far below any
    /// `max.poll.interval.ms` worth setting, far above the moments a busy pipeline is full.
    static let pauseAfter: Duration = .seconds(1)

    private var paused = false
    private var fullSince: ContinuousClock.Instant?
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// Whether the assignment is paused.
    var isPaused: Bool { paused }

    /// The application has no room: `true` when the poll thread should poll anyway, having paused the
    /// assignment (full for ``pauseAfter`` already); `false` when it should wait for room.
    func noRoom(handle: OpaquePointer) -> Bool {
        let now = ContinuousClock.now
        guard let since = fullSince else {
            fullSince = now
            return false
        }
        guard now - since >= Self.pauseAfter else { return false }
        pause(handle: handle)
        return true
    }

    /// The application has room: resumes the assignment if it was paused.
    func room(handle: OpaquePointer) {
        fullSince = nil
        resume(handle: handle)
    }

    /// Pauses every partition currently assigned (again after a rebalance while paused: a partition
    /// assigned meanwhile starts unpaused).
    private func pause(handle: OpaquePointer) {
        var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
        guard rd_kafka_assignment(handle, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return }
        defer { rd_kafka_topic_partition_list_destroy(list) }
        if list.pointee.cnt > 0 { _ = rd_kafka_pause_partitions(handle, list) }
        if !paused {
            paused = true
            logger.info("input paused: the pipeline holds all it may (outputs not acknowledged yet); still polling the group")
        }
    }

    /// Resumes the assigned partitions if they were paused.
    private func resume(handle: OpaquePointer) {
        guard paused else { return }
        var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
        guard rd_kafka_assignment(handle, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return }
        defer { rd_kafka_topic_partition_list_destroy(list) }
        if list.pointee.cnt > 0 { _ = rd_kafka_resume_partitions(handle, list) }
        paused = false
        logger.info("input resumed")
    }
}
