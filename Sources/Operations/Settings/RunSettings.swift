import Kafka
import Logging
import PushModel
import PushTranslation
import PushWorker

/// Every setting of `pushgate run`, resolved from flags, then `PUSHGATE_*` variables, then a
/// configuration file, then defaults (maps, `topics` and `kafka-properties`, are merged per entry in
/// the same order).
public struct RunSettings: Sendable {
    /// The worker's configuration (Kafka, topics, translation, in-flight bound, metrics port).
    public var worker: PushWorkerConfiguration
    /// Partitions per topic of the embedded broker. Default: 8.
    public var partitions: Int
    /// Log level. Default: `info`.
    public var logLevel: Logger.Level
    /// Log line format. Default: `text`.
    public var logFormat: LogFormat
    /// How long startup waits for the bootstrap servers to answer a metadata request. Default: 10 s.
    public var connectTimeoutSeconds: Int

    /// The secret values among the librdkafka properties (``KafkaSecrets``), never to be logged.
    public var secrets: [String] { KafkaSecrets.secretValues(of: worker.kafkaProperties) }

    /// Resolves the settings of `sources`, highest precedence first (flags, environment, file).
    /// - Throws: ``SettingError`` naming the setting and its source for a value that cannot be used.
    public static func resolve(_ sources: [SettingSource]) throws(SettingError) -> RunSettings {
        let reader = SettingReader(sources: sources)
        var topics: [OutputFormat: String] = [:]
        for (name, topic, where_) in reader.entries(.topics) {
            guard let format = OutputFormat(rawValue: name) else {
                let known = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw SettingError("\(where_): unknown format '\(name)'; use one of \(known)")
            }
            guard !topic.isEmpty else { throw SettingError("\(where_): \(name)= needs a topic name") }
            topics[format] = topic
        }
        var properties: [String: String] = [:]
        for (name, value, where_) in reader.entries(.kafkaProperties) {
            guard !name.isEmpty else { throw SettingError("\(where_): a librdkafka property needs a name") }
            properties[name] = value
        }
        let maxPayloadBytes = try reader.int(.maxPayloadBytes, range: 1...Int.max)
            ?? TranslatorConfiguration.defaultMaxPayloadBytes
        let translator = TranslatorConfiguration(
            lenient: try reader.bool(.lenient) ?? false,
            maxPayloadBytes: maxPayloadBytes,
            topics: topics,
            deadLetterTopic: try reader.string(.deadLetterTopic) ?? TranslatorConfiguration.defaultDeadLetterTopic)
        let metricsPort = try reader.int(.metricsPort, range: 1...65535)
        let worker = PushWorkerConfiguration(
            bootstrapServers: try reader.string(.bootstrapServers) ?? "",
            groupId: try reader.string(.groupId) ?? "pushgate",
            inputTopic: try reader.string(.inputTopic) ?? TranslatorConfiguration.defaultInputTopic,
            translator: translator, kafkaProperties: properties,
            maxInFlightRecords: try reader.int(.maxInFlight, range: 1...1_000_000) ?? 1000,
            statisticsIntervalMs: metricsPort == nil ? 0 : 5000,
            metricsPort: metricsPort)
        return RunSettings(
            worker: worker,
            partitions: try reader.int(.partitions, range: 1...10_000) ?? 8,
            logLevel: try reader.choice(.logLevel, Logger.Level.allCases.map(\.rawValue)).flatMap { Logger.Level(rawValue: $0) } ?? .info,
            logFormat: try reader.choice(.logFormat, LogFormat.allCases.map(\.rawValue)).flatMap { LogFormat(rawValue: $0) } ?? .text,
            connectTimeoutSeconds: try reader.int(.connectTimeout, range: 1...3600) ?? 10)
    }
}

/// Looks a setting up in sources by precedence and parses it, naming the source in errors.
struct SettingReader {
    let sources: [SettingSource]

    /// The first source's text for `key`, and how that source names it.
    func text(_ key: SettingKey) -> (String, String)? {
        for source in sources {
            if let value = source.scalars[key] { return (value, source.name(of: key)) }
        }
        return nil
    }

    func string(_ key: SettingKey) throws(SettingError) -> String? {
        guard let (value, name) = text(key) else { return nil }
        guard !value.isEmpty else { throw SettingError("\(name) must not be empty") }
        return value
    }

    func int(_ key: SettingKey, range: ClosedRange<Int>) throws(SettingError) -> Int? {
        guard let (value, name) = text(key) else { return nil }
        guard let number = Int(value.trimmingCharacters(in: .whitespaces)) else {
            throw SettingError("\(name) must be an integer, not '\(value)'")
        }
        guard range.contains(number) else {
            let upper = range.upperBound == Int.max ? "" : " and at most \(range.upperBound)"
            throw SettingError("\(name) must be at least \(range.lowerBound)\(upper), not \(number)")
        }
        return number
    }

    func bool(_ key: SettingKey) throws(SettingError) -> Bool? {
        guard let (value, name) = text(key) else { return nil }
        switch value.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: throw SettingError("\(name) must be true or false, not '\(value)'")
        }
    }

    func choice(_ key: SettingKey, _ allowed: [String]) throws(SettingError) -> String? {
        guard let (value, name) = text(key) else { return nil }
        let lowered = value.trimmingCharacters(in: .whitespaces).lowercased()
        guard allowed.contains(lowered) else {
            throw SettingError("\(name) must be one of \(allowed.joined(separator: ", ")), not '\(value)'")
        }
        return lowered
    }

    /// Entries of a map setting, lowest precedence first so that later ones win, each with its source's name.
    func entries(_ key: SettingKey) -> [(String, String, String)] {
        sources.reversed().flatMap { source in
            (source.maps[key] ?? []).map { ($0.0, $0.1, source.name(of: key)) }
        }
    }
}
