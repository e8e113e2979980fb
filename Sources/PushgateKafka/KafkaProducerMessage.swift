/// A record to write with a ``KafkaProducer``.
public struct KafkaProducerMessage: Sendable, Equatable {
    /// The topic to write to.
    public var topic: String
    /// The partition; `nil` lets the partitioner choose from the key (same key, same partition).
    public var partition: Int32?
    /// The key; `nil` for none.
    public var key: [UInt8]?
    /// The value.
    public var value: [UInt8]
    /// Whether the value is null (a tombstone) rather than `value`'s bytes, which are then empty.
    public var valueIsNull: Bool
    /// The headers, in order.
    public var headers: [KafkaHeader]
    /// The timestamp in milliseconds since the epoch; `nil` lets the producer use the current time.
    public var timestampMs: Int64?

    /// Creates a message; `valueIsNull` writes a null value (when `value` is empty).
    public init(
        topic: String, partition: Int32? = nil, key: [UInt8]?, value: [UInt8],
        headers: [KafkaHeader] = [], timestampMs: Int64? = nil, valueIsNull: Bool = false
    ) {
        self.topic = topic
        self.partition = partition
        self.key = key
        self.value = value
        self.valueIsNull = valueIsNull && value.isEmpty
        self.headers = headers
        self.timestampMs = timestampMs
    }
}

/// The broker's acknowledgement of one produced record.
public struct KafkaDeliveryReport: Sendable, Equatable {
    /// The topic written to.
    public var topic: String
    /// The partition the record went to.
    public var partition: Int32
    /// The offset the broker gave the record; `nil` when librdkafka does not know it (idempotent retries).
    public var offset: Int64?
}
