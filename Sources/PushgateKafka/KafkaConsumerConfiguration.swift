/// How a ``KafkaConsumer`` connects, which topics it reads and how much it buffers.
///
/// Offsets are only ever committed explicitly (``KafkaConsumer/commit(_:)``): `enable.auto.commit` and
/// `enable.auto.offset.store` are always `false`.
public struct KafkaConsumerConfiguration: Sendable {
    /// `bootstrap.servers`: a comma-separated `host:port` list.
    public var bootstrapServers: String
    /// `group.id`: the consumer group.
    public var groupId: String
    /// The topics to subscribe to.
    public var topics: [String]
    /// Further librdkafka properties (`-X key=value`), applied after the defaults.
    public var properties: [String: String]
    /// `statistics.interval.ms`: how often the statistics handler receives librdkafka's JSON. Default: 0 (off).
    public var statisticsIntervalMs: Int
    /// How many read records may wait for the application before the poll thread stops polling
    /// (backpressure). Default: 1000.
    public var bufferedMessages: Int
    /// How long one poll of the consumer's poll thread waits, in milliseconds. Default: 100.
    public var pollTimeoutMs: Int32
    /// Longest a commit (the one before a revocation included) waits for the coordinator's answer, in
    /// milliseconds; a commit without an answer by then is given up. Default: 10000.
    public var commitTimeoutMs: Int32

    /// The properties pushgate sets before `properties`. Default: `auto.offset.reset=earliest`, so a new
    /// group starts at the beginning of the topic and nothing written before it started is skipped;
    /// `queued.max.messages.kbytes=16384`, so librdkafka prefetches at most 16 MiB ahead of the
    /// application (its default, 64 MiB, is most of the worker's memory). A smaller queue cost
    /// throughput only while librdkafka's fetcher slept on a full queue, which ``FetcherWakeUp`` ends.
    public static let defaultProperties: [String: String] = [
        "auto.offset.reset": "earliest",
        "queued.max.messages.kbytes": "16384",
    ]

    /// The properties that are always set, whatever `properties` says.
    public static let enforcedProperties: [String: String] = [
        "enable.auto.commit": "false",
        "enable.auto.offset.store": "false",
    ]

    /// Creates a configuration.
    public init(
        bootstrapServers: String, groupId: String, topics: [String], properties: [String: String] = [:],
        statisticsIntervalMs: Int = 0, bufferedMessages: Int = 1000, pollTimeoutMs: Int32 = 100,
        commitTimeoutMs: Int32 = 10_000
    ) {
        self.bootstrapServers = bootstrapServers
        self.groupId = groupId
        self.topics = topics
        self.properties = properties
        self.statisticsIntervalMs = statisticsIntervalMs
        self.bufferedMessages = bufferedMessages
        self.pollTimeoutMs = pollTimeoutMs
        self.commitTimeoutMs = commitTimeoutMs
    }

    /// Every librdkafka property of the consumer, in the order they are applied.
    var librdkafkaProperties: [(String, String)] {
        var result = Self.defaultProperties.sorted { $0.key < $1.key }
        result.append(("bootstrap.servers", bootstrapServers))
        result.append(("group.id", groupId))
        result += properties.sorted { $0.key < $1.key }.filter { Self.enforcedProperties[$0.key] == nil }
        if statisticsIntervalMs > 0 { result.append(("statistics.interval.ms", String(statisticsIntervalMs))) }
        result += Self.enforcedProperties.sorted { $0.key < $1.key }
        return result
    }
}
