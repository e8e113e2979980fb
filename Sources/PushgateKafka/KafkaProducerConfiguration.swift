/// How a ``KafkaProducer`` connects and behaves.
///
/// The producer is always idempotent with `acks=all`: those two properties cannot be overridden, because
/// pushgate's at-least-once and per-key ordering guarantees rest on them.
public struct KafkaProducerConfiguration: Sendable {
    /// `bootstrap.servers`: a comma-separated `host:port` list.
    public var bootstrapServers: String
    /// Further librdkafka properties (`-X key=value`: TLS, SASL, tuning), applied after the defaults.
    public var properties: [String: String]
    /// `statistics.interval.ms`: how often the statistics handler receives librdkafka's JSON. Default: 0 (off).
    public var statisticsIntervalMs: Int
    /// How long one poll of the producer's poll thread waits for events, in milliseconds. Default: 50.
    public var pollTimeoutMs: Int32

    /// The properties pushgate sets before `properties`.
    /// Default: `max.in.flight.requests.per.connection=5` (the most idempotence allows while keeping order).
    public static let defaultProperties: [String: String] = [
        "max.in.flight.requests.per.connection": "5"
    ]

    /// The properties that are always set, whatever `properties` says.
    public static let enforcedProperties: [String: String] = [
        "enable.idempotence": "true",
        "acks": "all",
    ]

    /// Creates a configuration.
    public init(
        bootstrapServers: String, properties: [String: String] = [:], statisticsIntervalMs: Int = 0,
        pollTimeoutMs: Int32 = 50
    ) {
        self.bootstrapServers = bootstrapServers
        self.properties = properties
        self.statisticsIntervalMs = statisticsIntervalMs
        self.pollTimeoutMs = pollTimeoutMs
    }

    /// Every librdkafka property of the producer, in the order they are applied.
    var librdkafkaProperties: [(String, String)] {
        var result = Self.defaultProperties.sorted { $0.key < $1.key }
        result.append(("bootstrap.servers", bootstrapServers))
        result += properties.sorted { $0.key < $1.key }.filter { Self.enforcedProperties[$0.key] == nil }
        if statisticsIntervalMs > 0 { result.append(("statistics.interval.ms", String(statisticsIntervalMs))) }
        result += Self.enforcedProperties.sorted { $0.key < $1.key }
        return result
    }
}
