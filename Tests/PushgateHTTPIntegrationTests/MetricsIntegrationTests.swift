import Foundation
import Logging
import PushModel
import PushTranslation
import PushWorker
import PushgateHTTP
import PushgateKafka
import PushgateLogging
import PushgateMetrics
import PushgateSettings
import PushgateTestSupport
import ServiceLifecycle
import Testing

@Suite("Metrics and health endpoints during a run on the embedded broker", .serialized, .timeLimit(.minutes(3)))
struct MetricsIntegrationTests {
    static let payloads: [String] = [
        #"{"message":{"title":"T","body":"B"},"data":{"n":1}}"#,
        #"{"platform":{"ios":false},"message":{"body":"android only"}}"#,
        #"{"message":{"title":"T","body":"x"},"carousel":{"items":[{"image":"https://i.example/1.png"},{"image":"https://i.example/2.png"}]}}"#,
        #"{"message":{"body":"B"},"card":{"size":"small"}}"#,
        #"{"id":"n-7","message":{"body":"SECRET-BODY-TEXT"},"bogus":true}"#,
        "not json SECRET-BODY-TEXT",
        "{}",
        #"{"platform":{"ios":false},"message":{"body":"B"},"custom":{"android_body_loc_key_action":"BK","android_body_loc_args":["x"]}}"#,
    ]

    @Test func countersMatchWhatTheTranslatorProducesAndHealthTurnsReady() async throws {
        let topics =
            [TranslatorConfiguration.defaultInputTopic] + OutputFormat.allCases.map(\.defaultTopic)
            + [TranslatorConfiguration.defaultDeadLetterTopic]
        var quiet = Logger(label: "operations-tests")
        quiet.logLevel = .error
        let broker = try EmbeddedBroker(topics: topics, partitions: 4, logger: quiet)
        defer { broker.shutdown() }

        let log = CapturedLog()
        var logger = Logger(label: "pushgate") { PushgateLogHandler(label: $0, format: .json, output: log.output) }
        logger.logLevel = .info
        let metrics = PrometheusMetrics()
        let health = WorkerHealth()
        let configuration = PushWorkerConfiguration(
            bootstrapServers: broker.bootstrapServers, groupId: "ops-\(UInt32.random(in: 0...UInt32.max))",
            kafkaProperties: BrokerTesting.quickGroup,
            commitInterval: .milliseconds(200), statisticsIntervalMs: 300)
        let port = PortBox()
        let server = OperationsServer(
            host: "127.0.0.1", port: 0, routes: OperationsRoutes(metrics: metrics.emit, health: health),
            logger: quiet, onListening: { port.set($0) })
        let worker = PushWorker(configuration: configuration, logger: logger, metrics: metrics.worker, health: health)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: server),
                    .init(service: worker, successTerminationBehavior: .gracefullyShutdownGroup),
                ],
                logger: quiet))
        let running = Task { try await group.run() }

        let bound = try await eventually("the server to listen") { port.value }
        #expect(try await HTTPTestSupport.get("/health", port: bound).status == 200)
        _ = try await eventually("/ready to answer 200") {
            try await HTTPTestSupport.get("/ready", port: bound).status == 200 ? true : nil
        }

        // Inputs, and what the translator makes of them.
        let count = 70
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(bootstrapServers: broker.bootstrapServers), logger: quiet)
        let translator = Translator(configuration: configuration.translator)
        var expectedProduced: [String: Int] = [:]
        var expectedDeadLetters: [String: Int] = [:]
        var expectedWarnings: [String: Int] = [:]
        var deadLetterCount = 0
        for index in 0..<count {
            let value = Array(Self.payloads[index % Self.payloads.count].utf8)
            _ = try await producer.send(
                KafkaProducerMessage(topic: "push.unified", key: Array("k\(index % 5)".utf8), value: value))
            let translation = translator.translation(
                of: InputRecord(topic: "push.unified", partition: 0, offset: 0, key: nil, value: value, timestampMs: 1),
                readAtMs: 1)
            for record in translation.records {
                expectedProduced[record.format?.rawValue ?? WorkerMetrics.deadLetterFormat, default: 0] += 1
            }
            for report in translation.deadLetters {
                deadLetterCount += 1
                for code in Set(report.errors.map(\.code)) {
                    expectedDeadLetters["\(report.stage.rawValue)|\(code.rawValue)", default: 0] += 1
                }
            }
            for warning in translation.warnings { expectedWarnings[warning.code.rawValue, default: 0] += 1 }
        }
        await producer.shutdown()
        let expectedTotal = expectedProduced.values.reduce(0, +)
        #expect(
            expectedProduced.count == 5 && expectedDeadLetters.count >= 3 && !expectedWarnings.isEmpty,
            "inputs cover every label")

        let samples = try await eventually("every record to be counted") { () -> [String: Double]? in
            let response = try await HTTPTestSupport.get("/metrics", port: bound)
            let samples = HTTPTestSupport.samples(response.body)
            let done =
                HTTPTestSupport.value(samples, MetricName.recordsConsumed) == Double(count)
                && HTTPTestSupport.value(samples, MetricName.recordsProduced) == Double(expectedTotal)
            return done ? samples : nil
        }
        for (format, expected) in expectedProduced {
            #expect(
                HTTPTestSupport.value(samples, MetricName.recordsProduced, ["format": format]) == Double(expected),
                "format \(format)")
        }
        for (key, expected) in expectedDeadLetters {
            let parts = key.split(separator: "|").map(String.init)
            #expect(
                HTTPTestSupport.value(samples, MetricName.deadLetters, ["stage": parts[0], "code": parts[1]])
                    == Double(expected), "dead letters \(key)")
        }
        #expect(
            HTTPTestSupport.value(samples, MetricName.deadLetters) == Double(expectedDeadLetters.values.reduce(0, +)))
        for (code, expected) in expectedWarnings {
            #expect(
                HTTPTestSupport.value(samples, MetricName.warnings, ["code": code]) == Double(expected),
                "warnings \(code)")
        }
        #expect(HTTPTestSupport.value(samples, MetricName.translationDuration + "_count") == Double(count))
        #expect(HTTPTestSupport.value(samples, MetricName.endToEndLatency + "_count") == Double(count))
        _ = try await eventually("consumer lag from statistics") { () -> Bool? in
            let body = try await HTTPTestSupport.get("/metrics", port: bound).body
            return body.contains(MetricName.consumerLag + "{topic=\"push.unified\"") ? true : nil
        }

        await group.triggerGracefulShutdown()
        try await running.value
        #expect(health.notReadyReason != nil, "not ready once draining")

        // Every dead letter is logged at warning level with id, source and codes, never the payload.
        let lines = log.lines
        let deadLetterLines = lines.filter { $0.contains("\"message\":\"dead letter\"") }
        #expect(deadLetterLines.count == deadLetterCount)
        #expect(
            deadLetterLines.allSatisfy {
                $0.contains("\"level\":\"warning\"") && $0.contains("\"codes\":")
                    && $0.contains("\"source\":\"push.unified:")
            })
        #expect(deadLetterLines.contains { $0.contains("\"id\":\"n-7\"") })
        #expect(!lines.contains { $0.contains("SECRET-BODY-TEXT") })
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not JSON: \(line)")
        }
    }
}
