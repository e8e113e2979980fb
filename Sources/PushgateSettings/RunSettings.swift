import Logging
import PushModel
import PushTranslation
import PushWorker
import PushgateKafka
import PushgateLogging

/// Every setting of `pushgate run`, resolved from its flags (``RunOptions``), then `PUSHGATE_*`
/// variables, then a configuration file, then the defaults of ``Settings`` (maps, `topics` and
/// `kafka-properties`, are merged per entry in the same order).
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

    /// Sets up the process's logging with these settings' format, level and secrets (once per process),
    /// and returns a logger labelled `label`.
    /// `metadata` adds to every line (the current span's ids, when tracing is on).
    public func bootstrapLogging(label: String, metadata: Logger.MetadataProvider? = nil) -> Logger {
        let (format, secrets) = (logFormat, self.secrets)
        LoggingSystem.bootstrap {
            PushgateLogHandler(label: $0, format: format, secrets: secrets, metadataProvider: metadata)
        }
        var logger = Logger(label: label)
        logger.logLevel = logLevel
        return logger
    }

    /// Resolves the settings of `options` and `environment`, and, when `readingFile`, of the configuration
    /// file they name (a blocking read: call it off the cooperative pool).
    /// - Throws: ``SettingError`` naming the setting and its source for a value that cannot be used.
    public static func resolve(
        _ options: RunOptions, environment: EnvironmentSettings, readingFile: Bool
    ) throws(SettingError) -> RunSettings {
        var file: ConfigFile?
        if readingFile,
            let path = try SettingReader(environment: environment).value(
                Settings.config, flag: options.connection.config)
        {
            file = try ConfigFile.load(path: path)
        }
        return try resolve(options, SettingReader(environment: environment, file: file))
    }

    /// Resolves the settings of `options`, below them those of `reader` (variables, file), then defaults.
    /// - Throws: ``SettingError`` naming the setting and its source for a value that cannot be used.
    public static func resolve(_ options: RunOptions, _ reader: SettingReader) throws(SettingError) -> RunSettings {
        let metricsPort = try reader.value(Settings.metricsPort, flag: options.metricsPort)
        var worker = PushWorkerConfiguration(
            bootstrapServers: try reader.value(Settings.bootstrapServers, flag: options.connection.bootstrapServers)
                ?? "",
            groupId: try reader.value(Settings.groupId, flag: options.connection.groupId),
            inputTopic: try reader.value(Settings.inputTopic, flag: options.connection.inputTopic),
            translator: try reader.translatorConfiguration(
                lenient: options.connection.lenient, maxPayloadBytes: options.connection.maxPayloadBytes,
                topics: options.connection.topics, deadLetterTopic: options.connection.deadLetterTopic,
                androidFormats: options.connection.androidFormats),
            kafkaProperties: try reader.value(
                Settings.kafkaProperties, flagEntries: options.connection.kafkaProperties),
            maxInFlightRecords: try reader.value(Settings.maxInFlight, flag: options.maxInFlight),
            statisticsIntervalMs: metricsPort == nil ? 0 : 5000,
            metricsPort: metricsPort)
        worker.shutdownTimeout = try reader.value(Settings.shutdownTimeout, flagText: options.shutdownTimeout)
        return RunSettings(
            worker: worker,
            partitions: try reader.value(Settings.partitions, flag: options.partitions),
            logLevel: try reader.value(Settings.logLevel, flag: options.logging.logLevel),
            logFormat: try reader.value(Settings.logFormat, flag: options.logging.logFormat),
            connectTimeoutSeconds: try reader.value(Settings.connectTimeout, flag: options.connectTimeout))
    }
}

extension SettingReader {
    /// The translator's settings (leniency, payload limit, topics, Android formats), shared by `run` and
    /// `translate`: each flag given wins over the reader's sources.
    public func translatorConfiguration(
        lenient: Bool?, maxPayloadBytes: Int?, topics: [String], deadLetterTopic: String?, androidFormats: String?
    ) throws(SettingError) -> TranslatorConfiguration {
        TranslatorConfiguration(
            lenient: try value(Settings.lenient, flag: lenient),
            maxPayloadBytes: try value(Settings.maxPayloadBytes, flag: maxPayloadBytes),
            topics: try value(Settings.topics, flagEntries: topics),
            deadLetterTopic: try value(Settings.deadLetterTopic, flag: deadLetterTopic),
            androidFormats: try value(Settings.androidFormats, flagText: androidFormats))
    }
}
