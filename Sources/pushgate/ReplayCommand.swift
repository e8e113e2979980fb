import ArgumentParser
import Foundation
import Logging
import PushModel
import PushTranslation
import PushWorker
import PushgateKafka
import PushgateSettings

/// `pushgate replay`: re-drive records from a topic or a JSON Lines file into the input topic.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Write records from a topic (e.g. the dead-letter topic after a fix) or a file into the input topic.",
        discussion: """
            Keys and values are written unchanged; pushgate-* and __connect.errors.* headers are dropped, other \
            headers are kept. A live progress line goes to standard error.

            From a topic (--from-topic): every partition from --from-offset (inclusive) or the first record at or \
            after --since, up to --to-offset (exclusive) or the end of the partition when the replay starts; \
            records at or after --until are skipped. No consumer group is joined, nothing committed.

            From a file (--file): JSON Lines. A line written by `pushgate translate` with "format":null (a dead \
            letter) is replayed with its exact bytes (value_base64), key and headers; translate lines of a format \
            are outputs and are skipped. Any other line is itself a payload, replayed with no key and no headers.

            --error-code and --format keep only records whose headers match (dead letters carry them). \
            Environment: \(environmentVariables) (as for run).
            """
    )

    /// The variables replay reads, below its flags.
    private static var environmentVariables: String {
        [
            Settings.bootstrapServers.environmentVariable, Settings.inputTopic.environmentVariable,
            Settings.kafkaProperties.environmentVariable,
        ].joined(separator: ", ")
    }

    @Option(name: Settings.bootstrapServers.optionName, help: "\(Settings.bootstrapServers.documentation.summary).")
    var bootstrapServers: String?

    @Option(
        name: Settings.inputTopic.optionName,
        help: ArgumentHelp("The topic to write to (default: \(Settings.inputTopic.defaultValue))."))
    var inputTopic: String?

    @Option(help: "Read records from this topic.")
    var fromTopic: String?

    @Option(help: "Read records from this JSON Lines file.")
    var file: String?

    @Option(help: "First offset of each partition to read (inclusive).")
    var fromOffset: Int64?

    @Option(help: "Offset at which each partition stops (exclusive).")
    var toOffset: Int64?

    @Option(help: "Start at the first record at or after this time (ms since the epoch, or ISO 8601).")
    var since: String?

    @Option(help: "Skip records at or after this time (ms since the epoch, or ISO 8601).")
    var until: String?

    @Option(help: "Only dead letters with this error code (e.g. invalid_url).")
    var errorCode: String?

    @Option(help: "Only records whose pushgate-format header is this format.")
    var format: String?

    @Option(Settings.kafkaProperties)
    var kafkaProperties: [String] = []

    func validate() throws {
        guard (fromTopic == nil) != (file == nil) else {
            throw ValidationError("give exactly one of --from-topic and --file")
        }
        if file != nil, fromOffset != nil || toOffset != nil || since != nil || until != nil {
            throw ValidationError("--from-offset, --to-offset, --since and --until apply to --from-topic only")
        }
        if let format, OutputFormat(rawValue: format) == nil {
            throw ValidationError("--format: unknown format '\(format)'")
        }
        _ = try Self.time(since, option: "--since")
        _ = try Self.time(until, option: "--until")
    }

    func run() async throws {
        let (bootstrap, target, properties) = try settings(EnvironmentSettings())
        var logger = Logger(label: "pushgate.replay")
        logger.logLevel = .warning
        let replayer = try Replayer(
            producer: KafkaProducerConfiguration(
                bootstrapServers: bootstrap, properties: KafkaPropertyScope.properties(properties, for: .producer)),
            targetTopic: target, filter: ReplayFilter(errorCode: errorCode, format: format), total: nil, logger: logger)
        let started = ContinuousClock.now
        let ticker = Task {
            while !Task.isCancelled {
                // A periodic timer: the progress line is redrawn four times a second, whatever happens.
                try? await Task.sleep(for: .milliseconds(250))
                Self.show(replayer.progress, since: started, final: false)
            }
        }
        do {
            if let file {
                let contents = try await DedicatedThread.run(name: "replay-file") {
                    try ReplayFileReader.read(path: file)
                }
                replayer.setTotal(contents.records.count + contents.skippedOutputs)
                replayer.countSkipped(contents.skippedOutputs)
                for record in contents.records { try await replayer.replay(record) }
            } else if let fromTopic {
                let source = TopicReplaySource(
                    topic: fromTopic,
                    consumer: KafkaConsumerConfiguration(
                        bootstrapServers: bootstrap, groupId: "pushgate-replay", topics: [],
                        properties: KafkaPropertyScope.properties(properties, for: .consumer)),
                    fromOffset: fromOffset, toOffset: toOffset,
                    sinceMs: try Self.time(since, option: "--since"), untilMs: try Self.time(until, option: "--until"))
                try await source.run(into: replayer, logger: logger)
            }
            try await replayer.finish()
        } catch {
            // Deliver what was already handed over before reporting the error.
            try? await replayer.finish()
            ticker.cancel()
            Self.show(replayer.progress, since: started, final: true)
            throw error
        }
        ticker.cancel()
        Self.show(replayer.progress, since: started, final: true)
    }

    /// Bootstrap servers, target topic and librdkafka properties: flags, then `PUSHGATE_*` variables, then
    /// the defaults of ``Settings`` (as `run` reads them; replay has no configuration file).
    private func settings(_ environment: EnvironmentSettings) throws -> (String, String, [String: String]) {
        let reader = SettingReader(environment: environment)
        let properties = try validating { () throws(SettingError) in
            try reader.value(Settings.kafkaProperties, flagEntries: kafkaProperties)
        }
        let bootstrap = try validating { () throws(SettingError) in
            try reader.value(Settings.bootstrapServers, flag: bootstrapServers)
        }
        guard let bootstrap else {
            throw ValidationError(
                "\(Settings.bootstrapServers.flag) (or \(Settings.bootstrapServers.environmentVariable)) is required")
        }
        let target = try validating { () throws(SettingError) in try reader.value(Settings.inputTopic, flag: inputTopic)
        }
        return (bootstrap, target, properties)
    }

    private static func show(_ progress: ReplayProgress, since start: ContinuousClock.Instant, final: Bool) {
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        StandardStreams.writeError(
            "\r\u{1B}[K" + Replayer.describe(progress, elapsedSeconds: seconds) + (final ? "\n" : ""))
    }

    /// Parses a time option: milliseconds since the epoch, or ISO 8601.
    private static func time(_ text: String?, option: String) throws -> Int64? {
        guard let text else { return nil }
        if let milliseconds = Int64(text) { return milliseconds }
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate],
        ] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return Int64(date.timeIntervalSince1970 * 1000) }
        }
        throw ValidationError("\(option) expects milliseconds since the epoch or an ISO 8601 time, got '\(text)'")
    }
}
