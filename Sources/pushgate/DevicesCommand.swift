import ArgumentParser
import Foundation
import PushDelivery
import PushWorker
import PushgateKafka
import PushgateSettings

/// `pushgate devices`: writes and reads the device directory from the command line (SPEC 10.8).
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Register, remove and list the devices of the directory topic (push.devices).",
        discussion: """
            The directory is the compacted topic pushgate deliver reads its devices from (docs/deliver.md): \
            one record per device, keyed by its id, whose value says its audience, platform, app and token. \
            These commands take the connection options of run (--bootstrap-servers is required), with the \
            same environment variables and configuration file.
            """,
        subcommands: [DevicesPutCommand.self, DevicesRemoveCommand.self, DevicesListCommand.self]
    )
}

/// The options every `pushgate devices` command takes: `run`'s connection options (`--config`,
/// `--bootstrap-servers`, `-X`) and logging options, from the same definitions (``Settings``), the
/// directory topic, and what of `deliver`'s configuration decides when `app` is required (SPEC 10.1).
struct DevicesOptions: ParsableArguments {
    @Option(Settings.config) var config: String?
    /// `--bootstrap-servers`: required (no embedded broker, unlike `run`), from a flag, the variable or `--config`.
    @Option(Settings.Deliver.bootstrapServers) var bootstrapServers: String?
    @Option(Settings.kafkaProperties) var kafkaProperties: [String] = []
    @OptionGroup var logging: LoggingOptions

    @Option(help: ArgumentHelp("The directory topic.", valueName: "NAME"))
    var devicesTopic = DirectoryReader.defaultTopic

    @Option(
        help: ArgumentHelp(
            "As given to deliver: an apns device may then leave out app (only whether it is given counts).",
            valueName: "ID"))
    var apnsBundleId: String?

    @Option(
        help: ArgumentHelp(
            "As given to deliver (repeatable; counted, not read): with more than one, an fcm device needs app.",
            valueName: "FILE"))
    var fcmCredentials: [String] = []

    @Option(
        help: ArgumentHelp(
            "As given to deliver (repeatable; counted, not read): with more than one, a webpush device needs app.",
            valueName: "NAME=FILE"))
    var vapidKey: [String] = []

    /// The rules of SPEC 10.1 under these options.
    var parser: DirectoryRecordParser {
        DirectoryRecordParser(
            rules: DirectoryRules(
                apnsBundleIDGiven: apnsBundleId != nil, fcmCredentialCount: fcmCredentials.count,
                vapidKeyCount: vapidKey.count))
    }

    /// The same values as `run`'s options; those these commands do not take are not given.
    var runOptions: RunOptions {
        // A property wrapper that is neither parsed nor set cannot be read, and every option is read when
        // the settings are resolved: those these commands do not take are set to "not given".
        var connection = ConnectionOptions()
        connection.config = config
        connection.bootstrapServers = bootstrapServers
        connection.kafkaProperties = kafkaProperties
        connection.groupId = nil
        connection.inputTopic = nil
        connection.topics = []
        connection.deadLetterTopic = nil
        connection.androidFormats = nil
        connection.lenient = nil
        connection.maxPayloadBytes = nil
        var options = RunOptions()
        options.connection = connection
        options.logging = logging
        options.partitions = nil
        options.metricsPort = nil
        options.maxInFlight = nil
        options.connectTimeout = nil
        options.shutdownTimeout = nil
        return options
    }

    /// Checks the flags and variables (the configuration file is read by ``resolve()``).
    func validateSettings() throws {
        let settings = try validating { () throws(SettingError) in
            try RunSettings.resolve(runOptions, environment: EnvironmentSettings(), readingFile: false)
        }
        // A configuration file (read later) may still name them.
        let file = config ?? ProcessInfo.processInfo.environment["PUSHGATE_CONFIG"]
        if settings.worker.bootstrapServers.isEmpty && file == nil {
            throw ValidationError("--bootstrap-servers (or PUSHGATE_BOOTSTRAP_SERVERS) is required")
        }
        guard !devicesTopic.isEmpty else { throw ValidationError("--devices-topic must not be empty") }
    }

    /// The settings, the configuration file read off the cooperative pool.
    func resolve() async throws -> RunSettings {
        let options = runOptions
        let settings = try await DedicatedThread.run(name: "pushgate-settings") {
            try validating { () throws(SettingError) in
                try RunSettings.resolve(options, environment: EnvironmentSettings(), readingFile: true)
            }
        }
        guard !settings.worker.bootstrapServers.isEmpty else {
            throw ValidationError("--bootstrap-servers (or PUSHGATE_BOOTSTRAP_SERVERS) is required")
        }
        return settings
    }
}

extension RunSettings {
    /// The librdkafka properties of `-X` for a client of `role`.
    func properties(for role: KafkaClientRole) -> [String: String] {
        KafkaPropertyScope.properties(worker.kafkaProperties, for: role)
    }
}
