import ArgumentParser

/// The command-line options of `pushgate run`, typed, one per setting of ``Settings`` in the order of
/// ``Settings/all``: each takes its flag and help from its definition. The options other commands take too
/// are option groups (``ConnectionOptions``, ``LoggingOptions``). An option not given is `nil` (or empty),
/// so that the variable, the file or the default applies (``RunSettings/resolve(_:_:)``); what the type
/// cannot say (a range, an empty name) is checked there, with the same message as for a variable.
public struct RunOptions: ParsableArguments, Sendable {
    /// `--config` to `-X`: where to connect, the topics, the translation.
    @OptionGroup public var connection: ConnectionOptions
    /// `--metrics-port`.
    @Option(Settings.metricsPort) public var metricsPort: Int?
    /// `--partitions`.
    @Option(Settings.partitions) public var partitions: Int?
    /// `--max-in-flight`.
    @Option(Settings.maxInFlight) public var maxInFlight: Int?
    /// `--log-level` and `--log-format`.
    @OptionGroup public var logging: LoggingOptions
    /// `--connect-timeout`.
    @Option(Settings.connectTimeout) public var connectTimeout: Int?
    /// `--shutdown-timeout`, as text (a duration with its unit).
    @Option(text: Settings.shutdownTimeout) public var shutdownTimeout: String?

    /// No option given.
    public init() {}
}
