import CRdKafka

/// An offset commit that waits for the coordinator's answer at most a given time.
///
/// librdkafka 2.0.2's synchronous `rd_kafka_commit` waits without a deadline (it retries for as long as
/// the coordinator is unreachable). This one sends the commit with `rd_kafka_commit_queue` to a queue of
/// its own and polls that queue with the timeout; on timeout the queue is destroyed, which makes
/// librdkafka drop the answer whenever it comes.
enum RDKafkaBoundedCommit {
    /// Commits `offsets` and waits for the answer at most `timeoutMs` milliseconds.
    /// - Throws: ``KafkaError`` with the commit's error (or a partition's), `_TIMED_OUT` without an answer.
    static func commit(_ offsets: [KafkaTopicPartitionOffset], handle: OpaquePointer, timeoutMs: Int32)
        throws(KafkaError)
    {
        guard let queue = rd_kafka_queue_new(handle) else { throw KafkaError.client("cannot create a commit queue") }
        defer { rd_kafka_queue_destroy(queue) }
        let list = RDKafkaTopicPartitionList.make(offsets)
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let sent = rd_kafka_commit_queue(handle, list, queue, nil, nil)
        if sent != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(sent) }
        guard let event = rd_kafka_queue_poll(queue, Int32(max(timeoutMs, 0))) else {
            throw KafkaError(RD_KAFKA_RESP_ERR__TIMED_OUT, message: "no answer to the commit within \(timeoutMs) ms")
        }
        defer { rd_kafka_event_destroy(event) }
        let code = rd_kafka_event_error(event)
        if code != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(code) }
        if let committed = rd_kafka_event_topic_partition_list(event),
            let error = RDKafkaTopicPartitionList.firstError(of: UnsafePointer(committed))
        {
            throw error
        }
    }
}
