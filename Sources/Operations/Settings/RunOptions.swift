import ArgumentParser
import Logging

/// The command-line options of `pushgate run`, typed, one per setting of ``Settings`` in the order of
/// ``Settings/all``: each takes its flag and help from its definition. An option not given is `nil` (or
/// empty), so that the variable, the file or the default applies (``RunSettings/resolve(_:_:)``); what the
/// type cannot say (a range, an empty name) is checked there, with the same message as for a variable.
public struct RunOptions: ParsableArguments, Sendable {
    /// `--config FILE`.
    @Option(Settings.config) public var config: String?
    /// `--bootstrap-servers`.
    @Option(Settings.bootstrapServers) public var bootstrapServers: String?
    /// `--group-id`.
    @Option(Settings.groupId) public var groupId: String?
    /// `--input-topic`.
    @Option(Settings.inputTopic) public var inputTopic: String?
    /// `--topic FORMAT=NAME`, repeatable.
    @Option(Settings.topics) public var topics: [String] = []
    /// `--dead-letter-topic`.
    @Option(Settings.deadLetterTopic) public var deadLetterTopic: String?
    /// `--android-formats`: its text, read by ``Settings/androidFormats`` (whose message names the accepted formats).
    @Option(text: Settings.androidFormats) public var androidFormats: String?
    /// `--lenient` or `--no-lenient`.
    @Flag(name: Settings.lenient.optionName, inversion: .prefixedNo, help: Settings.lenient.argumentHelp)
    public var lenient: Bool?
    /// `--max-payload-bytes`.
    @Option(Settings.maxPayloadBytes) public var maxPayloadBytes: Int?
    /// `-X KEY=VALUE`, repeatable.
    @Option(Settings.kafkaProperties) public var kafkaProperties: [String] = []
    /// `--metrics-port`.
    @Option(Settings.metricsPort) public var metricsPort: Int?
    /// `--partitions`.
    @Option(Settings.partitions) public var partitions: Int?
    /// `--max-in-flight`.
    @Option(Settings.maxInFlight) public var maxInFlight: Int?
    /// `--log-level`.
    @Option(Settings.logLevel) public var logLevel: Logger.Level?
    /// `--log-format`.
    @Option(Settings.logFormat) public var logFormat: LogFormat?
    /// `--connect-timeout`.
    @Option(Settings.connectTimeout) public var connectTimeout: Int?

    /// No option given.
    public init() {}
}
