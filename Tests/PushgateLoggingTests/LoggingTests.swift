import Foundation
import Logging
import PushWorker
import PushgateKafka
import PushgateLogging
import PushgateTestSupport
import Testing

@Suite("Logs: JSON lines, secrets never written")
struct LoggingTests {
    static let password = "s3cr3t-Pa55word"

    @Test func jsonLinesParseAndCarryLevelLabelMessageAndMetadata() throws {
        let log = CapturedLog()
        let logger = Logger(label: "pushgate") { PushgateLogHandler(label: $0, format: .json, output: log.output) }
        logger.warning("dead letter", metadata: ["codes": "invalid_json", "quote": "a \"b\"\n\u{01}"])
        let line = try #require(log.lines.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning")
        #expect(object["label"] as? String == "pushgate")
        #expect(object["message"] as? String == "dead letter")
        #expect((object["metadata"] as? [String: String])?["quote"] == "a \"b\"\n\u{01}")
        #expect(object["timestamp"] is String)
    }

    @Test func textLinesAreReadable() throws {
        let log = CapturedLog()
        let logger = Logger(label: "pushgate") { PushgateLogHandler(label: $0, format: .text, output: log.output) }
        logger.info("starting", metadata: ["group": "g"])
        let line = try #require(log.lines.first)
        #expect(line.hasSuffix(" info pushgate: starting group=g"))
    }

    @Test func textLinesCannotBeForgedByControlCharactersInValues() throws {
        let log = CapturedLog()
        let logger = Logger(label: "pushgate") { PushgateLogHandler(label: $0, format: .text, output: log.output) }
        logger.warning("dead letter", metadata: ["id": "x\n2026-01-01T00:00:00Z critical pushgate: forged"])
        #expect(log.lines.count == 1)
        let line = try #require(log.lines.first)
        #expect(!line.contains("\n"))
        #expect(line.contains("id=x\\n2026"))
    }

    @Test func secretValuesAreRedactedFromMessagesAndMetadata() {
        let log = CapturedLog()
        let settings = ["sasl.password": Self.password, "sasl.username": "alice", "ssl.key.password": "kp-9"]
        let logger = Logger(label: "pushgate") {
            PushgateLogHandler(
                label: $0, format: .json, secrets: KafkaSecrets.secretValues(of: settings), output: log.output)
        }
        logger.error("login with \(Self.password) failed", metadata: ["config": "\(settings)"])
        logger.info("properties", metadata: ["kafka-properties": "\(KafkaSecrets.describe(settings))"])
        #expect(!log.lines.joined().contains(Self.password))
        #expect(!log.lines.joined().contains("kp-9"))
        #expect(log.lines.joined().contains("alice"))
        #expect(
            KafkaSecrets.describe(settings)
                == "sasl.password=[redacted], sasl.username=alice, ssl.key.password=[redacted]")
    }

    @Test func saslPasswordNeverAppearsInLogsOfAFailedStartup() async throws {
        let log = CapturedLog()
        let properties = [
            "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN", "sasl.username": "alice",
            "sasl.password": Self.password,
        ]
        var logger = Logger(label: "pushgate") {
            PushgateLogHandler(
                label: $0, format: .json, secrets: KafkaSecrets.secretValues(of: properties), output: log.output)
        }
        logger.logLevel = .debug
        await #expect(throws: KafkaError.self) {
            try await KafkaCluster.checkReachable(
                bootstrapServers: "127.0.0.1:1", properties: properties.merging(["debug": "security,conf"]) { $1 },
                timeout: .seconds(1), logger: logger)
        }
        let lines = log.lines
        #expect(!lines.isEmpty)
        #expect(!lines.joined().contains(Self.password))
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not JSON: \(line)")
        }
    }

    @Test func anInvalidSecretPropertyIsReportedWithoutItsValue() {
        do {
            _ = try KafkaProducer(
                configuration: KafkaProducerConfiguration(
                    bootstrapServers: "127.0.0.1:1", properties: ["sasl.password.typo": Self.password]),
                logger: Logger(label: "test"))
            Issue.record("an unknown property was accepted")
        } catch {
            #expect(!error.description.contains(Self.password))
            #expect(error.description.contains("sasl.password.typo=[redacted]"))
        }
    }

    @Test func unreachableBootstrapServersAreNamedWithTheTimeout() async {
        do {
            var quiet = Logger(label: "test")
            quiet.logLevel = .critical
            _ = try await KafkaCluster.checkReachable(
                bootstrapServers: "127.0.0.1:1", timeout: .seconds(1), logger: quiet)
            Issue.record("reached nothing")
        } catch {
            #expect(error.message.hasPrefix("cannot reach bootstrap servers 127.0.0.1:1 within 1 s"))
        }
    }
}
