/// A setting of `pushgate run`: its configuration file key, its flag and its environment variable.
public enum SettingKey: String, CaseIterable, Sendable {
    /// Kafka `bootstrap.servers`; none starts an embedded broker.
    case bootstrapServers = "bootstrap-servers"
    /// The consumer group. Default: `pushgate`.
    case groupId = "group-id"
    /// The input topic. Default: `push.unified`.
    case inputTopic = "input-topic"
    /// Output topic per format (`FORMAT=NAME` entries). Default: SPEC section 1 names.
    case topics
    /// The dead-letter topic. Default: `push.dlq`.
    case deadLetterTopic = "dead-letter-topic"
    /// Unknown fields are warnings. Default: false.
    case lenient
    /// Largest payload in bytes. Default: 1048576.
    case maxPayloadBytes = "max-payload-bytes"
    /// librdkafka properties of both clients (`KEY=VALUE` entries). Default: none.
    case kafkaProperties = "kafka-properties"
    /// Port of the `/metrics`, `/health`, `/ready` server. Default: none (no server).
    case metricsPort = "metrics-port"
    /// Partitions per topic of the embedded broker. Default: 8.
    case partitions
    /// Most input records in flight. Default: 1000.
    case maxInFlight = "max-in-flight"
    /// Log level. Default: `info`.
    case logLevel = "log-level"
    /// Log format, `text` or `json`. Default: `text`.
    case logFormat = "log-format"
    /// Seconds to wait at startup for the bootstrap servers. Default: 10.
    case connectTimeout = "connect-timeout"

    /// The key in a configuration file: the raw value, e.g. `max-in-flight`.
    public var fileKey: String { rawValue }

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
}

/// The variable naming the configuration file, used when `--config` is not given.
public let configFileVariable = "PUSHGATE_CONFIG"
