/// A partition of a topic.
public struct KafkaTopicPartition: Sendable, Hashable, CustomStringConvertible {
    /// The topic name.
    public var topic: String
    /// The partition number.
    public var partition: Int32

    /// Creates a topic partition.
    public init(topic: String, partition: Int32) {
        self.topic = topic
        self.partition = partition
    }

    public var description: String { "\(topic)[\(partition)]" }

    /// Hashes the partition number only: a client reads and writes few topics, so partitions of
    /// different topics rarely share a number, and equal values still compare their topics. Hashing
    /// the name too would hash a string for every lookup of every record.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(partition)
    }
}

/// A partition and an offset in it, as used for commits and positions.
public struct KafkaTopicPartitionOffset: Sendable, Hashable, CustomStringConvertible {
    /// The partition.
    public var topicPartition: KafkaTopicPartition
    /// The offset. For a commit this is the offset of the *next* record to read (last done + 1).
    public var offset: Int64

    /// Creates a partition offset.
    public init(topic: String, partition: Int32, offset: Int64) {
        self.topicPartition = KafkaTopicPartition(topic: topic, partition: partition)
        self.offset = offset
    }

    /// Creates a partition offset.
    public init(_ topicPartition: KafkaTopicPartition, offset: Int64) {
        self.topicPartition = topicPartition
        self.offset = offset
    }

    public var description: String { "\(topicPartition)@\(offset)" }
}
