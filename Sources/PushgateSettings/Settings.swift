import Logging
import PushModel
import PushTranslation
import PushWorker
import PushgateLogging

/// Every setting of pushgate, defined once: names, default, parser and documentation. The commands'
/// options take their name and help from here (``RunOptions``), ``RunSettings`` its values, and
/// docs/configuration.md its settings table. A default that a library type documents already (the
/// translator's topics and limit, the worker's group and in-flight bound) is taken from that type.
public enum Settings {
    /// `--config FILE`: the YAML configuration file (its value is read by the command, not from a file).
    public static let config = Setting<String?>(
        "config", inFile: false, default: nil, described: "none: no file",
        summary: "A YAML configuration file of these settings, below flags and variables in precedence",
        valueName: "FILE", option: "`--config FILE`", parser: .optional(.text))

    /// `--bootstrap-servers`.
    public static let bootstrapServers = Setting<String?>(
        "bootstrap-servers", default: nil,
        described: "none: start an embedded broker on loopback and print its address",
        summary: "Kafka bootstrap servers (host:port,...)", parser: .optional(.text))

    /// `--group-id`.
    public static let groupId = Setting<String>(
        "group-id", default: workerDefaults.groupId, summary: "The consumer group", parser: .text)

    /// `--input-topic`.
    public static let inputTopic = Setting<String>(
        "input-topic", default: TranslatorConfiguration.defaultInputTopic, summary: "The input topic", parser: .text)

    /// `--topic FORMAT=NAME` (repeatable).
    public static let topics = MapSetting<[OutputFormat: String]>(
        "topics", flag: "--topic", default: [:], described: "SPEC section 1 names",
        summary: "Output topic of a format (repeatable)", valueName: "FORMAT=NAME",
        option: "`--topic FORMAT=NAME` (repeatable)", environmentNote: " (`a=b,c=d`)",
        fileNote: " (mapping `FORMAT: NAME`)", variableHelp: " (FORMAT=NAME entries separated by ',', ';' or newlines)",
        environmentSeparators: [",", ";"], parse: Self.topicEntries)

    /// `--dead-letter-topic`.
    public static let deadLetterTopic = Setting<String>(
        "dead-letter-topic", default: TranslatorConfiguration.defaultDeadLetterTopic, summary: "The dead-letter topic",
        parser: .text)

    /// `--android-formats` (comma-separated; SPEC section 4).
    public static let androidFormats = Setting<OutputFormatSet>(
        "android-formats", default: TranslatorConfiguration.defaultAndroidFormats,
        summary: "Formats for payloads routed to Android, comma-separated: "
            + TranslatorConfiguration.androidFormatNames.joined(separator: ", "),
        valueName: "FORMATS", parser: .androidFormats)

    /// `--lenient` / `--no-lenient`.
    public static let lenient = Setting<Bool>(
        "lenient", default: false, summary: "Unknown fields are warnings instead of errors",
        option: "`--lenient` / `--no-lenient`", environmentNote: " (`true`/`false`)", variableHelp: " (true/false)",
        parser: .boolean)

    /// `--max-payload-bytes`.
    public static let maxPayloadBytes = Setting<Int>(
        "max-payload-bytes", default: TranslatorConfiguration.defaultMaxPayloadBytes,
        summary: "Largest payload in bytes; larger is too_large", parser: .integer(1...Int.max))

    /// `-X KEY=VALUE` (repeatable).
    public static let kafkaProperties = MapSetting<[String: String]>(
        "kafka-properties", flag: "-X", environmentVariable: "PUSHGATE_X", default: [:], described: "none",
        summary: "A librdkafka property (repeatable): consumer.KEY or producer.KEY for one client; an unprefixed "
            + "property goes to the clients it applies to",
        valueName: "KEY=VALUE", option: "`-X KEY=VALUE` (repeatable; `consumer.`/`producer.` prefix: one client only)",
        environmentNote: " (`k=v;k2=v2`)", fileNote: " (mapping `KEY: VALUE`)",
        variableHelp: " (key=value entries separated by ';' or newlines; a -X flag wins for the same key)",
        environmentSeparators: [";"], parse: Self.propertyEntries)

    /// `--metrics-port`.
    public static let metricsPort = Setting<Int?>(
        "metrics-port", default: nil, described: "none: no HTTP server",
        summary: "Port of the HTTP server of /metrics, /health and /ready on all interfaces",
        parser: .optional(.integer(1...65535)))

    /// The partition counts `--partitions` accepts (`pushgate broker` checks its own flag against them too).
    public static let partitionCounts = 1...10_000

    /// `--partitions` (embedded broker only).
    public static let partitions = Setting<Int>(
        "partitions", default: 8,
        summary: "Partitions per topic of the embedded broker, when no bootstrap servers are given",
        option: "`--partitions` (embedded broker only)", parser: .integer(partitionCounts))

    /// `--max-in-flight`.
    public static let maxInFlight = Setting<Int>(
        "max-in-flight", default: workerDefaults.maxInFlightRecords,
        summary: "Most input records in flight, read but not all acknowledged", parser: .integer(1...1_000_000))

    /// `--log-level`.
    public static let logLevel = Setting<Logger.Level>(
        "log-level", default: .info, summary: "Log level: " + Logger.Level.names, parser: .choice)

    /// `--log-format`.
    public static let logFormat = Setting<LogFormat>(
        "log-format", default: .text,
        summary: "Log lines as readable text or JSON, one object per line: " + LogFormat.names,
        option: "`--log-format` (`text`, `json`)", parser: .choice)

    /// `--connect-timeout` (seconds).
    public static let connectTimeout = Setting<Int>(
        "connect-timeout", default: 10,
        summary: "Seconds to wait at startup for the bootstrap servers to answer before exiting",
        option: "`--connect-timeout` (seconds)", parser: .integer(1...3600))

    /// `--shutdown-timeout`.
    public static let shutdownTimeout = Setting<Duration>(
        "shutdown-timeout", default: workerDefaults.shutdownTimeout,
        summary: "How long SIGTERM or SIGINT may take to stop in all, whatever the cluster does; "
            + "what is not committed by then is read again by the next member",
        valueName: "DURATION", option: "`--shutdown-timeout` (`500ms`, `30s`, `2m`; a bare number is seconds)",
        parser: .duration(.milliseconds(100)...Duration.seconds(3600)))

    /// Every setting of `pushgate run`, in the order of its help and of the settings table; the keys a
    /// configuration file may hold.
    public static let all: [any SettingDefinition] = [
        config, bootstrapServers, groupId, inputTopic, topics, deadLetterTopic, androidFormats, lenient,
        maxPayloadBytes, kafkaProperties, metricsPort, partitions, maxInFlight, logLevel, logFormat, connectTimeout,
        shutdownTimeout,
    ]

    /// The worker's own defaults (``PushWorkerConfiguration``), where the group and the in-flight bound
    /// are defined.
    private static let workerDefaults = PushWorkerConfiguration(bootstrapServers: "")

    private static func topicEntries(_ entries: [SettingEntry]) throws(SettingError) -> [OutputFormat: String] {
        var topics: [OutputFormat: String] = [:]
        for entry in entries {
            guard let format = OutputFormat(rawValue: entry.name) else {
                let known = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw SettingError("\(entry.source): unknown format '\(entry.name)'; use one of \(known)")
            }
            guard !entry.value.isEmpty else { throw SettingError("\(entry.source): \(entry.name)= needs a topic name") }
            topics[format] = entry.value
        }
        return topics
    }

    private static func propertyEntries(_ entries: [SettingEntry]) throws(SettingError) -> [String: String] {
        var properties: [String: String] = [:]
        for entry in entries {
            guard !entry.name.isEmpty else { throw SettingError("\(entry.source): a librdkafka property needs a name") }
            properties[entry.name] = entry.value
        }
        return properties
    }
}

extension Logger.Level: SettingChoice {}
extension LogFormat: SettingChoice {}
