/// Learns about partition assignment changes of a ``KafkaConsumer``'s group, as they happen.
///
/// Both methods are called on the consumer's poll thread, in the middle of the rebalance: the consumer
/// does not read further until they return. They may block for a short, bounded time (waiting for work in
/// flight), but must return well within `max.poll.interval.ms`.
public protocol KafkaRebalanceListener: Sendable {
    /// The group gave this consumer `partitions`; records read from them carry `epoch` as their
    /// ``KafkaConsumerMessage/assignmentEpoch``.
    func partitionsAssigned(_ partitions: [KafkaTopicPartition], epoch: UInt64)

    /// The group takes `partitions` away. Returns the offsets to commit for them before they go (the
    /// next offset to read of each partition, i.e. last finished + 1); the consumer commits them
    /// synchronously unless the assignment was already lost. Records of these partitions read before now
    /// must not be committed later.
    func partitionsRevoked(_ partitions: [KafkaTopicPartition], lost: Bool) -> [KafkaTopicPartitionOffset]
}
