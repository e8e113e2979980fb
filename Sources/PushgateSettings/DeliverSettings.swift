import Foundation
import Logging
import PushDelivery
import PushgateKafka
import PushgateLogging

/// Every setting of `pushgate deliver`, resolved from its flags (``DeliverOptions``), then `PUSHGATE_*`
/// variables, then the defaults of ``Settings/Deliver``, and checked as SPEC 10.8 says: bootstrap servers
/// given, every platform delivered to has its credentials (the key file readable), a platform named by
/// `--platforms` without them is an error naming the missing option.
public struct DeliverSettings: Sendable {
    /// The worker's configuration.
    public var delivery: DeliveryConfiguration
    /// Log level. Default: ``Settings/logLevel``.
    public var logLevel: Logger.Level
    /// Log line format. Default: ``Settings/logFormat``.
    public var logFormat: LogFormat

    /// The secret values among the librdkafka properties, never to be logged.
    public var secrets: [String] { KafkaSecrets.secretValues(of: delivery.kafkaProperties) }

    /// Sets up the process's logging (once per process) and returns a logger labelled `label`.
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

    /// Resolves `options` over `environment`; when `checkingFiles`, also that the credential files can be
    /// read (a blocking check: call it off the cooperative pool).
    /// - Throws: ``SettingError`` naming the setting and its source.
    public static func resolve(
        _ options: DeliverOptions, environment: EnvironmentSettings, checkingFiles: Bool = false
    ) throws(SettingError) -> DeliverSettings {
        let reader = SettingReader(environment: environment)
        typealias S = Settings.Deliver
        guard let bootstrapServers = try reader.value(S.bootstrapServers, flag: options.bootstrapServers) else {
            throw SettingError("--bootstrap-servers (or \(S.bootstrapServers.environmentVariable)) is required")
        }
        let apns = APNsSettings(
            keyFile: try reader.value(S.apnsKeyFile, flag: options.apnsKeyFile),
            keyID: try reader.value(S.apnsKeyID, flag: options.apnsKeyID),
            teamID: try reader.value(S.apnsTeamID, flag: options.apnsTeamID),
            bundleID: try reader.value(S.apnsBundleID, flag: options.apnsBundleID),
            endpoint: try reader.value(S.apnsEndpoint, flag: options.apnsEndpoint),
            sandboxEndpoint: try reader.value(S.apnsSandboxEndpoint, flag: options.apnsSandboxEndpoint))
        let fcm = FCMSettings(
            credentialFiles: try reader.value(
                S.fcmCredentials, flag: options.fcmCredentials.isEmpty ? nil : options.fcmCredentials),
            endpoint: try reader.value(S.fcmEndpoint, flag: options.fcmEndpoint))
        let webpush = WebPushSettings(
            vapidKeys: try reader.value(S.vapidKeys, flagEntries: options.vapidKeys),
            vapidSubject: try reader.value(S.vapidSubject, flag: options.vapidSubject),
            allowHosts: try reader.value(
                S.webpushAllowHosts,
                flagText: options.webpushAllowHosts.isEmpty ? nil : options.webpushAllowHosts.joined(separator: ",")))
        let named: Set<Platform>?
        if let text = options.platforms {
            named = try S.platforms.parser.read(text, name: S.platforms.flag)
        } else {
            named = try reader.value(S.platforms, flag: nil as Set<Platform>?)
        }
        let platforms = try Self.platforms(named: named, apns: apns, fcm: fcm, webpush: webpush)
        var retry = RetryPolicy()
        retry.giveUpAfter = try reader.value(S.giveUpAfter, flagText: options.giveUpAfter)
        var delivery = DeliveryConfiguration(
            bootstrapServers: bootstrapServers, groupId: try reader.value(S.groupId, flag: options.groupId),
            platforms: platforms, topics: try reader.value(Settings.topics, flagEntries: options.topics),
            devicesTopic: try reader.value(S.devicesTopic, flag: options.devicesTopic),
            receiptsTopic: try reader.value(S.receiptsTopic, flag: options.receiptsTopic),
            receipts: try reader.value(S.receipts, flagText: options.receipts), apns: apns,
            caFile: try reader.value(S.caFile, flag: options.caFile),
            requestTimeout: try reader.value(S.requestTimeout, flagText: options.requestTimeout), retry: retry,
            maxInFlightRequests: try reader.value(S.maxInFlightRequests, flag: options.maxInFlightRequests),
            kafkaProperties: try reader.value(Settings.kafkaProperties, flagEntries: options.kafkaProperties),
            metricsPort: try reader.value(Settings.metricsPort, flag: options.metricsPort),
            shutdownTimeout: try reader.value(S.shutdownTimeout, flagText: options.shutdownTimeout))
        delivery.fcm = fcm
        delivery.webpush = webpush
        if platforms.contains(.webpush), webpush.vapidSubject == nil {
            throw SettingError("--platforms webpush needs --vapid-subject (a mailto: or https: URI)")
        }
        if checkingFiles {
            for (name, path) in webpush.vapidKeys.sorted(by: { $0.key < $1.key }) where platforms.contains(.webpush) {
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw SettingError("--vapid-key \(name): cannot read '\(path)'")
                }
            }
            for (flag, path) in [("--apns-key-file", apns.keyFile), ("--ca-file", delivery.caFile)] {
                guard let path, platforms.contains(.apns) || flag == "--ca-file" else { continue }
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw SettingError("\(flag): cannot read '\(path)'")
                }
            }
            for path in fcm.credentialFiles where platforms.contains(.fcm) {
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw SettingError("--fcm-credentials: cannot read '\(path)'")
                }
            }
        }
        return DeliverSettings(
            delivery: delivery, logLevel: try reader.value(Settings.logLevel, flag: options.logging.logLevel),
            logFormat: try reader.value(Settings.logFormat, flag: options.logging.logFormat))
    }

    /// The platforms to deliver to: those named, each with its credentials; without `--platforms`, those
    /// whose credentials are given (at least one).
    private static func platforms(
        named: Set<Platform>?, apns: APNsSettings, fcm: FCMSettings, webpush: WebPushSettings
    ) throws(SettingError) -> Set<Platform> {
        guard let named else {
            var given: Set<Platform> = []
            if apns.hasCredentials { given.insert(.apns) }
            let someAPNs = apns.keyFile != nil || apns.keyID != nil || apns.teamID != nil
            if someAPNs, fcm.hasCredentials || webpush.hasCredentials, let missing = apns.missingCredentialOption {
                throw SettingError("apns needs \(missing) (or name the platforms with --platforms)")
            }
            if fcm.hasCredentials { given.insert(.fcm) }
            if webpush.hasCredentials { given.insert(.webpush) }
            guard !given.isEmpty else {
                throw SettingError(
                    "no platform to deliver to: give --apns-key-file, --apns-key-id and --apns-team-id, "
                        + "--fcm-credentials, or --vapid-key and --vapid-subject (or their PUSHGATE_* variables)")
            }
            return given
        }
        if named.contains(.apns), let missing = apns.missingCredentialOption {
            throw SettingError("--platforms apns needs \(missing)")
        }
        if named.contains(.fcm), !fcm.hasCredentials { throw SettingError("--platforms fcm needs --fcm-credentials") }
        if named.contains(.webpush), !webpush.hasCredentials {
            throw SettingError("--platforms webpush needs --vapid-key NAME=FILE")
        }
        guard !named.isEmpty else { throw SettingError("--platforms names no platform") }
        return named
    }
}
