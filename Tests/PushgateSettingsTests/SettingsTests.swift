import ArgumentParser
import Logging
import PushModel
import PushWorker
import PushgateSettings
import Testing

@Suite("pushgate run settings: flags > environment > file > defaults")
struct SettingsTests {
    static let file = """
        group-id: from-file
        input-topic: file.input
        max-in-flight: 300
        lenient: yes
        log-format: json
        topics:
          apns: file.apns
          fb-card: file.fb
        kafka-properties:
          client.id: file-client
          linger.ms: "7"
        """

    @Test func flagsWinOverEnvironmentWhichWinsOverTheFileWhichWinsOverDefaults() throws {
        let settings = try resolve(
            flags: ["--group-id", "from-flag", "-X", "linger.ms=9"],
            environment: [
                "PUSHGATE_GROUP_ID": "from-env", "PUSHGATE_INPUT_TOPIC": "env.input",
                "PUSHGATE_TOPICS": "apns=env.apns",
                "PUSHGATE_X": "client.id=env-client",
            ],
            file: Self.file)
        #expect(settings.worker.groupId == "from-flag")
        #expect(settings.worker.inputTopic == "env.input")
        #expect(settings.worker.maxInFlightRecords == 300)
        #expect(settings.worker.translator.lenient)
        #expect(settings.logFormat == .json)
        #expect(settings.worker.translator.topic(for: .apns) == "env.apns")
        #expect(settings.worker.translator.topic(for: .fbCard) == "file.fb")
        #expect(settings.worker.kafkaProperties == ["client.id": "env-client", "linger.ms": "9"])
        #expect(settings.worker.translator.deadLetterTopic == "push.dlq")
        #expect(settings.partitions == 8)
        #expect(settings.logLevel == .info)
        #expect(settings.connectTimeoutSeconds == 10)
        #expect(settings.worker.metricsPort == nil)
    }

    @Test func typedFlagsWinOverTheirVariables() throws {
        let settings = try resolve(
            flags: [
                "--max-in-flight", "12", "--metrics-port", "9100", "--log-level", "WARNING", "--log-format", "Json",
                "--no-lenient", "--partitions", "3", "--connect-timeout", "5", "--max-payload-bytes", "2048",
            ],
            environment: [
                "PUSHGATE_MAX_IN_FLIGHT": "13", "PUSHGATE_METRICS_PORT": "9200", "PUSHGATE_LOG_LEVEL": "debug",
                "PUSHGATE_LOG_FORMAT": "text", "PUSHGATE_LENIENT": "true", "PUSHGATE_PARTITIONS": "4",
                "PUSHGATE_CONNECT_TIMEOUT": "6", "PUSHGATE_MAX_PAYLOAD_BYTES": "4096",
            ])
        #expect(settings.worker.maxInFlightRecords == 12)
        #expect(settings.worker.metricsPort == 9100)
        #expect(settings.logLevel == .warning)
        #expect(settings.logFormat == .json)
        #expect(!settings.worker.translator.lenient)
        #expect(settings.partitions == 3)
        #expect(settings.connectTimeoutSeconds == 5)
        #expect(settings.worker.translator.maxPayloadBytes == 2048)
    }

    @Test func variablesApplyWhereNoFlagIsGiven() throws {
        let settings = try resolve(
            environment: [
                "PUSHGATE_MAX_IN_FLIGHT": " 13 ", "PUSHGATE_LOG_LEVEL": "Debug", "PUSHGATE_BOOTSTRAP_SERVERS": "k:9092",
            ])
        #expect(settings.worker.maxInFlightRecords == 13)
        #expect(settings.logLevel == .debug)
        #expect(settings.worker.bootstrapServers == "k:9092")
    }

    @Test func defaultsApplyWhenNothingIsGiven() throws {
        let settings = try resolve()
        #expect(settings.worker.groupId == "pushgate")
        #expect(settings.worker.inputTopic == "push.unified")
        #expect(settings.worker.maxInFlightRecords == 4000)
        #expect(!settings.worker.translator.lenient)
        #expect(settings.worker.translator.maxPayloadBytes == 1_048_576)
        #expect(settings.logFormat == .text)
        #expect(settings.worker.statisticsIntervalMs == 0)
        #expect(settings.worker.bootstrapServers == "")
    }

    @Test func aMetricsPortTurnsStatisticsOn() throws {
        let settings = try resolve(environment: ["PUSHGATE_METRICS_PORT": "9090"])
        #expect(settings.worker.metricsPort == 9090)
        #expect(settings.worker.statisticsIntervalMs == 5000)
        #expect(try resolve(flags: ["--metrics-port", "9091"]).worker.metricsPort == 9091)
    }

    @Test func anUnknownFileKeyIsNamed() {
        #expect(throws: SettingError.self) { try resolve(file: "group-id: a\nmax-inflight: 3\n") }
        let message = settingFailure { try resolve(file: "group-id: a\nmax-inflight: 3\n") }
        #expect(message.contains("pushgate.yaml: unknown key 'max-inflight'"))
        #expect(message.contains("max-in-flight"))
    }

    @Test func badNumbersAndBooleansNameTheirSource() {
        #expect(
            settingFailure { try resolve(file: "max-in-flight: lots\n") }
                == "max-in-flight in pushgate.yaml must be an integer, not 'lots'")
        #expect(
            settingFailure { try resolve(environment: ["PUSHGATE_MAX_PAYLOAD_BYTES": "12k"]) }
                == "PUSHGATE_MAX_PAYLOAD_BYTES must be an integer, not '12k'")
        #expect(
            settingFailure { try resolve(flags: ["--max-in-flight", "0"]) }
                == "--max-in-flight must be at least 1 and at most 1000000, not 0")
        #expect(
            settingFailure { try resolve(environment: ["PUSHGATE_MAX_IN_FLIGHT": "0"]) }
                == "PUSHGATE_MAX_IN_FLIGHT must be at least 1 and at most 1000000, not 0")
        #expect(
            settingFailure { try resolve(flags: ["--metrics-port", "70000"]) }
                == "--metrics-port must be at least 1 and at most 65535, not 70000")
        #expect(settingFailure { try resolve(flags: ["--group-id", ""]) } == "--group-id must not be empty")
        #expect(
            settingFailure { try resolve(environment: ["PUSHGATE_LENIENT": "maybe"]) }
                == "PUSHGATE_LENIENT must be true or false, not 'maybe'")
        #expect(
            settingFailure { try resolve(file: "lenient: sometimes\n") }
                == "lenient in pushgate.yaml must be true or false, not 'sometimes'")
        #expect(
            settingFailure { try resolve(file: "log-format: xml\n") }
                == "log-format in pushgate.yaml must be one of text, json, not 'xml'")
        #expect(settingFailure { try resolve(file: "topics:\n  pigeon: x\n") }.contains("unknown format 'pigeon'"))
        #expect(settingFailure { try resolve(file: "topics: [a]\n") }.contains("topics must be a mapping"))
        #expect(settingFailure { try resolve(file: "- a\n- b\n") }.contains("must be a mapping of settings"))
        #expect(settingFailure { try resolve(file: "group-id: [a, b]\n") }.contains("group-id must be a single value"))
    }

    /// A flag value its type cannot hold is refused by swift-argument-parser (exit status 64), before the
    /// settings are read; a variable's is refused by the setting.
    @Test(arguments: [
        (["--max-in-flight", "lots"], "The value 'lots' is invalid for '--max-in-flight <max-in-flight>'"),
        (["--log-level", "loud"], "The value 'loud' is invalid for '--log-level <log-level>'"),
    ])
    func aFlagOfTheWrongTypeIsAParseError(arguments: [String], message: String) {
        do {
            _ = try RunOptions.parse(arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            #expect(RunOptions.exitCode(for: error) == .validationFailure)
            #expect(RunOptions.message(for: error) == message)
        }
    }

    @Test func everySettingHasItsOwnFlagVariableAndFileKey() {
        let settings = Settings.all.map(\.documentation)
        #expect(Set(settings.map(\.name)).count == settings.count)
        #expect(Set(settings.map(\.flag)).count == settings.count)
        #expect(Set(settings.map(\.environmentVariable)).count == settings.count)
        #expect(Set(settings.compactMap(\.fileKey)).count == settings.count - 1, "every setting but config")
        #expect(Settings.kafkaProperties.environmentVariable == "PUSHGATE_X")
        #expect(Settings.maxInFlight.environmentVariable == "PUSHGATE_MAX_IN_FLIGHT")
        #expect(Settings.topics.flag == "--topic")
        #expect(Settings.config.fileKey == nil)
    }
}
