import ArgumentParser
import Logging
import PushgateLogging

/// `--log-level` and `--log-format`, shared by `pushgate run` and `pushgate console` (`@OptionGroup`).
public struct LoggingOptions: ParsableArguments, Sendable {
    /// `--log-level`.
    @Option(Settings.logLevel) public var logLevel: Logger.Level?
    /// `--log-format`.
    @Option(Settings.logFormat) public var logFormat: LogFormat?

    /// No option given.
    public init() {}
}
