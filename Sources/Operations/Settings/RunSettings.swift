import Kafka
import Logging
import PushModel
import PushTranslation
import PushWorker

/// Every setting of `pushgate run`, resolved from flags, then `PUSHGATE_*` variables, then a
/// configuration file, then the defaults of ``Settings`` (maps, `topics` and `kafka-properties`, are
/// merged per entry in the same order).
public struct RunSettings: Sendable {
    /// The worker's configuration (Kafka, topics, translation, in-flight bound, metrics port).
    public var worker: PushWorkerConfiguration
    /// Partitions per topic of the embedded broker. Default: ``Settings/partitions``.
    public var partitions: Int
    /// Log level. Default: ``Settings/logLevel``.
    public var logLevel: Logger.Level
    /// Log line format. Default: ``Settings/logFormat``.
    public var logFormat: LogFormat
    /// How long startup waits for the bootstrap servers to answer a metadata request. Default: ``Settings/connectTimeout``.
    public var connectTimeoutSeconds: Int

    /// The secret values among the librdkafka properties (``KafkaSecrets``), never to be logged.
    public var secrets: [String] { KafkaSecrets.secretValues(of: worker.kafkaProperties) }

    /// Resolves the settings of `sources`, highest precedence first (flags, environment, file).
    /// - Throws: ``SettingError`` naming the setting and its source for a value that cannot be used.
    public static func resolve(_ sources: [SettingSource]) throws(SettingError) -> RunSettings {
        let reader = SettingReader(sources)
        let metricsPort = try reader.value(Settings.metricsPort)
        let worker = PushWorkerConfiguration(
            bootstrapServers: try reader.value(Settings.bootstrapServers) ?? "",
            groupId: try reader.value(Settings.groupId),
            inputTopic: try reader.value(Settings.inputTopic),
            translator: try reader.translatorConfiguration(),
            kafkaProperties: try reader.value(Settings.kafkaProperties),
            maxInFlightRecords: try reader.value(Settings.maxInFlight),
            statisticsIntervalMs: metricsPort == nil ? 0 : 5000,
            metricsPort: metricsPort)
        return RunSettings(
            worker: worker,
            partitions: try reader.value(Settings.partitions),
            logLevel: try reader.value(Settings.logLevel),
            logFormat: try reader.value(Settings.logFormat),
            connectTimeoutSeconds: try reader.value(Settings.connectTimeout))
    }
}

extension SettingReader {
    /// The translator's settings (leniency, payload limit, topics, Android formats), shared by `run` and `translate`.
    public func translatorConfiguration() throws(SettingError) -> TranslatorConfiguration {
        TranslatorConfiguration(
            lenient: try value(Settings.lenient),
            maxPayloadBytes: try value(Settings.maxPayloadBytes),
            topics: try value(Settings.topics),
            deadLetterTopic: try value(Settings.deadLetterTopic),
            androidFormats: try value(Settings.androidFormats))
    }
}
