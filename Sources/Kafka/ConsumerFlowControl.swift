import CRdKafka
import Logging

/// Pauses a consumer's assigned partitions while the application cannot take more records, and resumes
/// them when it can: the poll thread keeps calling `rd_kafka_consumer_poll` meanwhile, so the member
/// keeps its place in the group however long the pipeline is blocked (an output outage longer than
/// `max.poll.interval.ms` does not get it kicked out).
///
/// librdkafka resumes a paused partition from the position after the last record the application was
/// given, so nothing is skipped or read twice.
///
/// `@unchecked Sendable` is safe because only the consumer's poll thread uses it.
final class ConsumerFlowControl: @unchecked Sendable {
    private var paused = false
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// Whether the assignment is paused.
    var isPaused: Bool { paused }

    /// Pauses every partition currently assigned (again after a rebalance while paused: a partition
    /// assigned meanwhile starts unpaused).
    func pause(handle: OpaquePointer) {
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
    func resume(handle: OpaquePointer) {
        guard paused else { return }
        var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
        guard rd_kafka_assignment(handle, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return }
        defer { rd_kafka_topic_partition_list_destroy(list) }
        if list.pointee.cnt > 0 { _ = rd_kafka_resume_partitions(handle, list) }
        paused = false
        logger.info("input resumed")
    }
}
