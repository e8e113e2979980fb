import ArgumentParser

/// The options that say where a command connects and which topics and translation settings it uses, shared
/// by `pushgate run` and `pushgate console` (`@OptionGroup`), in the order of ``Settings/all``. An option
/// not given is `nil` (or empty), so that the variable, the file or the default applies.
public struct ConnectionOptions: ParsableArguments, Sendable {
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

    /// No option given.
    public init() {}
}
