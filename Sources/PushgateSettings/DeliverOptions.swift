import ArgumentParser

/// The command-line options of `pushgate deliver`, one per setting of ``Settings/Deliver/all``, in that
/// order. An option not given is `nil` (or empty), so that the variable or the default applies
/// (``DeliverSettings/resolve(_:environment:)``).
public struct DeliverOptions: ParsableArguments, Sendable {
    /// `--bootstrap-servers`.
    @Option(Settings.Deliver.bootstrapServers) public var bootstrapServers: String?
    /// `--group-id`.
    @Option(Settings.Deliver.groupId) public var groupId: String?
    /// `--platforms`, as text.
    @Option(text: Settings.Deliver.platforms) public var platforms: String?
    /// `--topic FORMAT=NAME`, repeatable.
    @Option(Settings.topics) public var topics: [String] = []
    /// `--devices-topic`.
    @Option(Settings.Deliver.devicesTopic) public var devicesTopic: String?
    /// `--receipts-topic`.
    @Option(Settings.Deliver.receiptsTopic) public var receiptsTopic: String?
    /// `--receipts`, as text.
    @Option(text: Settings.Deliver.receipts) public var receipts: String?
    /// `--apns-key-file`.
    @Option(Settings.Deliver.apnsKeyFile) public var apnsKeyFile: String?
    /// `--apns-key-id`.
    @Option(Settings.Deliver.apnsKeyID) public var apnsKeyID: String?
    /// `--apns-team-id`.
    @Option(Settings.Deliver.apnsTeamID) public var apnsTeamID: String?
    /// `--apns-bundle-id`.
    @Option(Settings.Deliver.apnsBundleID) public var apnsBundleID: String?
    /// `--apns-endpoint`.
    @Option(Settings.Deliver.apnsEndpoint) public var apnsEndpoint: String?
    /// `--apns-sandbox-endpoint`.
    @Option(Settings.Deliver.apnsSandboxEndpoint) public var apnsSandboxEndpoint: String?
    /// `--fcm-credentials FILE`, repeatable.
    @Option(list: Settings.Deliver.fcmCredentials) public var fcmCredentials: [String] = []
    /// `--fcm-endpoint`.
    @Option(Settings.Deliver.fcmEndpoint) public var fcmEndpoint: String?
    /// `--vapid-key NAME=FILE`, repeatable.
    @Option(Settings.Deliver.vapidKeys) public var vapidKeys: [String] = []
    /// `--vapid-subject`.
    @Option(Settings.Deliver.vapidSubject) public var vapidSubject: String?
    /// `--webpush-allow-host HOST`, repeatable.
    @Option(
        name: Settings.Deliver.webpushAllowHosts.optionName, help: Settings.Deliver.webpushAllowHosts.argumentHelp)
    public var webpushAllowHosts: [String] = []
    /// `--ca-file`.
    @Option(Settings.Deliver.caFile) public var caFile: String?
    /// `--request-timeout`, as text.
    @Option(text: Settings.Deliver.requestTimeout) public var requestTimeout: String?
    /// `--give-up-after`, as text.
    @Option(text: Settings.Deliver.giveUpAfter) public var giveUpAfter: String?
    /// `--max-in-flight-requests`.
    @Option(Settings.Deliver.maxInFlightRequests) public var maxInFlightRequests: Int?
    /// `-X KEY=VALUE`, repeatable.
    @Option(Settings.kafkaProperties) public var kafkaProperties: [String] = []
    /// `--metrics-port`.
    @Option(Settings.metricsPort) public var metricsPort: Int?
    /// `--log-level` and `--log-format`.
    @OptionGroup public var logging: LoggingOptions
    /// `--shutdown-timeout`, as text.
    @Option(text: Settings.Deliver.shutdownTimeout) public var shutdownTimeout: String?

    /// No option given.
    public init() {}
}
