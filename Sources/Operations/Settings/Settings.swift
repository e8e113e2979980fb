import Logging
import PushModel
import PushTranslation

/// Every setting of pushgate, defined once: names, default, parser and documentation. Commands take
/// their help and defaults from here, ``RunSettings`` its values, and docs/configuration.md its settings table.
public enum Settings {
    /// `--config FILE`: the YAML configuration file (its value is read by the command, not from a file).
    public static let config = Setting<String?>(
        .config, default: nil, defaultDescription: "none: no file",
        summary: "A YAML configuration file of these settings, below flags and variables in precedence",
        valueName: "FILE", option: "`--config FILE`", parser: .scalar(SettingParsers.optional(SettingParsers.text)))

    /// `--bootstrap-servers`.
    public static let bootstrapServers = Setting<String?>(
        .bootstrapServers, default: nil, defaultDescription: "none: start an embedded broker on loopback and print its address",
        summary: "Kafka bootstrap servers (host:port,...)",
        parser: .scalar(SettingParsers.optional(SettingParsers.text)))

    /// `--group-id`.
    public static let groupId = Setting<String>(
        .groupId, default: "pushgate", defaultDescription: "`pushgate`", summary: "The consumer group",
        parser: .scalar(SettingParsers.text))

    /// `--input-topic`.
    public static let inputTopic = Setting<String>(
        .inputTopic, default: TranslatorConfiguration.defaultInputTopic,
        defaultDescription: "`\(TranslatorConfiguration.defaultInputTopic)`", summary: "The input topic",
        parser: .scalar(SettingParsers.text))

    /// `--topic FORMAT=NAME` (repeatable).
    public static let topics = Setting<[OutputFormat: String]>(
        .topics, default: [:], defaultDescription: "SPEC section 1 names", summary: "Output topic of a format (repeatable)",
        valueName: "FORMAT=NAME", option: "`--topic FORMAT=NAME` (repeatable)", environmentNote: " (`a=b,c=d`)",
        fileNote: " (mapping `FORMAT: NAME`)", parser: .entries(Self.topicEntries))

    /// `--dead-letter-topic`.
    public static let deadLetterTopic = Setting<String>(
        .deadLetterTopic, default: TranslatorConfiguration.defaultDeadLetterTopic,
        defaultDescription: "`\(TranslatorConfiguration.defaultDeadLetterTopic)`", summary: "The dead-letter topic",
        parser: .scalar(SettingParsers.text))

    /// `--android-formats` (comma-separated; SPEC section 4).
    public static let androidFormats = Setting<OutputFormatSet>(
        .androidFormats, default: TranslatorConfiguration.defaultAndroidFormats, defaultDescription: "`android-expandable`",
        summary: "Formats for payloads routed to Android, comma-separated: android-expandable, fcm",
        valueName: "FORMATS", parser: .scalar(SettingParsers.androidFormats))

    /// `--lenient` / `--no-lenient`.
    public static let lenient = Setting<Bool>(
        .lenient, default: false, defaultDescription: "off", summary: "Unknown fields are warnings instead of errors",
        option: "`--lenient` / `--no-lenient`", environmentNote: " (`true`/`false`)", parser: .scalar(SettingParsers.boolean))

    /// `--max-payload-bytes`.
    public static let maxPayloadBytes = Setting<Int>(
        .maxPayloadBytes, default: TranslatorConfiguration.defaultMaxPayloadBytes,
        defaultDescription: "\(TranslatorConfiguration.defaultMaxPayloadBytes)",
        summary: "Largest payload in bytes; larger is too_large", parser: .scalar(SettingParsers.integer(1...Int.max)))

    /// `-X KEY=VALUE` (repeatable).
    public static let kafkaProperties = Setting<[String: String]>(
        .kafkaProperties, default: [:], defaultDescription: "none",
        summary: "A librdkafka property (repeatable): consumer.KEY or producer.KEY for one client; an unprefixed "
            + "property goes to the clients it applies to",
        valueName: "KEY=VALUE", option: "`-X KEY=VALUE` (repeatable; `consumer.`/`producer.` prefix: one client only)",
        environmentNote: " (`k=v;k2=v2`)", fileNote: " (mapping `KEY: VALUE`)", parser: .entries(Self.propertyEntries))

    /// `--metrics-port`.
    public static let metricsPort = Setting<Int?>(
        .metricsPort, default: nil, defaultDescription: "none: no HTTP server",
        summary: "Port of the HTTP server of /metrics, /health and /ready on all interfaces",
        parser: .scalar(SettingParsers.optional(SettingParsers.integer(1...65535))))

    /// `--partitions` (embedded broker only).
    public static let partitions = Setting<Int>(
        .partitions, default: 8, defaultDescription: "8",
        summary: "Partitions per topic of the embedded broker, when no bootstrap servers are given",
        option: "`--partitions` (embedded broker only)", parser: .scalar(SettingParsers.integer(1...10_000)))

    /// `--max-in-flight`.
    public static let maxInFlight = Setting<Int>(
        .maxInFlight, default: 4000, defaultDescription: "4000",
        summary: "Most input records in flight, read but not all acknowledged",
        parser: .scalar(SettingParsers.integer(1...1_000_000)))

    /// `--log-level`.
    public static let logLevel = Setting<Logger.Level>(
        .logLevel, default: .info, defaultDescription: "`info`",
        summary: "Log level: " + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "),
        parser: .scalar(SettingParsers.choice(Logger.Level.self)))

    /// `--log-format`.
    public static let logFormat = Setting<LogFormat>(
        .logFormat, default: .text, defaultDescription: "`text`",
        summary: "Log lines as readable text or JSON, one object per line: text, json",
        option: "`--log-format` (`text`, `json`)", parser: .scalar(SettingParsers.choice(LogFormat.self)))

    /// `--connect-timeout` (seconds).
    public static let connectTimeout = Setting<Int>(
        .connectTimeout, default: 10, defaultDescription: "10",
        summary: "Seconds to wait at startup for the bootstrap servers to answer before exiting",
        option: "`--connect-timeout` (seconds)", parser: .scalar(SettingParsers.integer(1...3600)))

    /// Every setting of `pushgate run`, in the order of its help and of the settings table.
    public static let all: [any SettingDocumentation] = [
        config, bootstrapServers, groupId, inputTopic, topics, deadLetterTopic, androidFormats, lenient,
        maxPayloadBytes, kafkaProperties, metricsPort, partitions, maxInFlight, logLevel, logFormat, connectTimeout,
    ]

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
