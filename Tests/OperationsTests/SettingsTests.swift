import Logging
import Operations
import PushModel
import PushWorker
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

    func resolve(flags: SettingSource = SettingSource(kind: .flags), environment: [String: String] = [:], file: String? = nil) throws -> RunSettings {
        var sources = [flags, try SettingSource.environment(EnvironmentSettings(environment))]
        if let file { sources.append(try ConfigFile.parse(file, path: "pushgate.yaml")) }
        return try RunSettings.resolve(sources)
    }

    @Test func flagsWinOverEnvironmentWhichWinsOverTheFileWhichWinsOverDefaults() throws {
        var flags = SettingSource(kind: .flags)
        flags.scalars[.groupId] = "from-flag"
        flags.maps[.kafkaProperties] = [("linger.ms", "9")]
        let settings = try resolve(
            flags: flags,
            environment: ["PUSHGATE_GROUP_ID": "from-env", "PUSHGATE_INPUT_TOPIC": "env.input", "PUSHGATE_TOPICS": "apns=env.apns",
                          "PUSHGATE_X": "client.id=env-client"],
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

    @Test func defaultsApplyWhenNothingIsGiven() throws {
        let settings = try resolve()
        #expect(settings.worker.groupId == "pushgate")
        #expect(settings.worker.inputTopic == "push.unified")
        #expect(settings.worker.maxInFlightRecords == 4000)
        #expect(!settings.worker.translator.lenient)
        #expect(settings.worker.translator.maxPayloadBytes == 1_048_576)
        #expect(settings.logFormat == .text)
        #expect(settings.worker.statisticsIntervalMs == 0)
    }

    @Test func aMetricsPortTurnsStatisticsOn() throws {
        let settings = try resolve(environment: ["PUSHGATE_METRICS_PORT": "9090"])
        #expect(settings.worker.metricsPort == 9090)
        #expect(settings.worker.statisticsIntervalMs == 5000)
    }

    @Test func anUnknownFileKeyIsNamed() {
        #expect(throws: SettingError.self) { try resolve(file: "group-id: a\nmax-inflight: 3\n") }
        let message = failure { try resolve(file: "group-id: a\nmax-inflight: 3\n") }
        #expect(message.contains("pushgate.yaml: unknown key 'max-inflight'"))
        #expect(message.contains("max-in-flight"))
    }

    @Test func badNumbersAndBooleansNameTheirSource() {
        #expect(failure { try resolve(file: "max-in-flight: lots\n") } == "max-in-flight in pushgate.yaml must be an integer, not 'lots'")
        #expect(failure { try resolve(environment: ["PUSHGATE_MAX_PAYLOAD_BYTES": "12k"]) } == "PUSHGATE_MAX_PAYLOAD_BYTES must be an integer, not '12k'")
        var flags = SettingSource(kind: .flags)
        flags.scalars[.maxInFlight] = "0"
        #expect(failure { try resolve(flags: flags) } == "--max-in-flight must be at least 1 and at most 1000000, not 0")
        #expect(failure { try resolve(environment: ["PUSHGATE_LENIENT": "maybe"]) } == "PUSHGATE_LENIENT must be true or false, not 'maybe'")
        #expect(failure { try resolve(file: "lenient: sometimes\n") } == "lenient in pushgate.yaml must be true or false, not 'sometimes'")
        #expect(failure { try resolve(file: "log-format: xml\n") } == "log-format in pushgate.yaml must be one of text, json, not 'xml'")
        #expect(failure { try resolve(file: "topics:\n  pigeon: x\n") }.contains("unknown format 'pigeon'"))
        #expect(failure { try resolve(file: "topics: [a]\n") }.contains("topics must be a mapping"))
        #expect(failure { try resolve(file: "- a\n- b\n") }.contains("must be a mapping of settings"))
        #expect(failure { try resolve(file: "group-id: [a, b]\n") }.contains("group-id must be a single value"))
    }

    @Test func everySettingHasAFileKeyAFlagAndAVariable() {
        let keys = SettingKey.allCases
        #expect(Set(keys.map(\.environmentVariable)).count == keys.count)
        #expect(SettingKey.kafkaProperties.environmentVariable == "PUSHGATE_X")
        #expect(SettingKey.maxInFlight.environmentVariable == "PUSHGATE_MAX_IN_FLIGHT")
        #expect(SettingKey.topics.flag == "--topic")
    }

    private func failure(_ body: () throws -> RunSettings) -> String {
        do {
            _ = try body()
            return "no error"
        } catch let error as SettingError {
            return error.description
        } catch {
            return "\(error)"
        }
    }
}
