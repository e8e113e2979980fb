/// A setting of pushgate, by name: its flag, its environment variable and its configuration file key.
/// What else defines it (default, parser, documentation) is its ``Setting`` in ``Settings``.
public enum SettingKey: String, CaseIterable, Sendable {
    /// The YAML configuration file itself (`--config`, `PUSHGATE_CONFIG`); it has no file key.
    case config
    /// Kafka `bootstrap.servers`; none starts an embedded broker.
    case bootstrapServers = "bootstrap-servers"
    /// The consumer group.
    case groupId = "group-id"
    /// The input topic.
    case inputTopic = "input-topic"
    /// Output topic per format (`FORMAT=NAME` entries).
    case topics
    /// The dead-letter topic.
    case deadLetterTopic = "dead-letter-topic"
    /// The Android formats an Android payload is written in (SPEC section 4).
    case androidFormats = "android-formats"
    /// Unknown fields are warnings.
    case lenient
    /// Largest payload in bytes.
    case maxPayloadBytes = "max-payload-bytes"
    /// librdkafka properties (`KEY=VALUE` entries).
    case kafkaProperties = "kafka-properties"
    /// Port of the `/metrics`, `/health`, `/ready` server.
    case metricsPort = "metrics-port"
    /// Partitions per topic of the embedded broker.
    case partitions
    /// Most input records in flight.
    case maxInFlight = "max-in-flight"
    /// Log level.
    case logLevel = "log-level"
    /// Log format, `text` or `json`.
    case logFormat = "log-format"
    /// Seconds to wait at startup for the bootstrap servers.
    case connectTimeout = "connect-timeout"

    /// The key in a configuration file, e.g. `max-in-flight`; `nil` for ``config``, which names the file.
    public var fileKey: String? { self == .config ? nil : rawValue }

    /// The command-line flag, e.g. `--max-in-flight`, `--topic`, `-X`.
    public var flag: String {
        switch self {
        case .topics: "--topic"
        case .kafkaProperties: "-X"
        default: "--" + rawValue
        }
    }

    /// The environment variable, e.g. `PUSHGATE_MAX_IN_FLIGHT`, `PUSHGATE_TOPICS`, `PUSHGATE_X`.
    public var environmentVariable: String {
        switch self {
        case .kafkaProperties: "PUSHGATE_X"
        default: "PUSHGATE_" + rawValue.uppercased().replacingOccurrences(of: "-", with: "_")
        }
    }

    /// Whether the setting is a map (`FORMAT=NAME` topics, `KEY=VALUE` librdkafka properties).
    public var isMap: Bool { self == .topics || self == .kafkaProperties }

    /// The separators of the map's entries in its environment variable, besides newlines.
    var environmentSeparators: Set<Character> { self == .topics ? [",", ";"] : [";"] }
}
