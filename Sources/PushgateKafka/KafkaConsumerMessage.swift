/// A record read by a ``KafkaConsumer``.
public struct KafkaConsumerMessage: Sendable, Equatable {
    /// The topic the record was read from.
    public var topic: String
    /// The partition the record was read from.
    public var partition: Int32
    /// The record's offset.
    public var offset: Int64
    /// The key; `nil` when the record has none.
    public var key: [UInt8]?
    /// The value; empty for a null value.
    public var value: [UInt8]
    /// Whether the value is null (a tombstone), not empty.
    public var valueIsNull: Bool
    /// The headers, in record order.
    public var headers: [KafkaHeader]
    /// The record timestamp in milliseconds since the epoch, `nil` when it has none.
    public var timestampMs: Int64?
    /// The assignment epoch of the record's partition when it was read: it changes every time the
    /// partition is assigned, so a record read before a rebalance can be told from one read after it.
    public var assignmentEpoch: UInt64

    /// Creates a message (for tests and test doubles).
    public init(
        topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8],
        headers: [KafkaHeader] = [], timestampMs: Int64? = nil, assignmentEpoch: UInt64 = 0,
        valueIsNull: Bool = false
    ) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.valueIsNull = valueIsNull && value.isEmpty
        self.headers = headers
        self.timestampMs = timestampMs
        self.assignmentEpoch = assignmentEpoch
    }

    /// The message's partition.
    public var topicPartition: KafkaTopicPartition { KafkaTopicPartition(topic: topic, partition: partition) }
}
