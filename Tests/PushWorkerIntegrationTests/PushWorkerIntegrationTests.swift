import Foundation
import Logging
import PushModel
import PushTranslation
import PushWorker
import PushgateKafka
import PushgateTestSupport
import ServiceLifecycle
import Testing

@Suite("PushWorker against the embedded broker, checked by an independent client", .serialized, .timeLimit(.minutes(5)))
struct PushWorkerIntegrationTests {
    /// With 200 records in flight, and with 1: a bound smaller than a read batch must not stall; and with
    /// both Android formats routed (`--android-formats android-expandable,fcm`).
    @Test(arguments: [(200, "android-expandable"), (1, "android-expandable"), (200, "android-expandable,fcm")])
    func everyInputYieldsExactlyItsTranslationsInKeyOrderAndIsCommitted(maxInFlight: Int, androidFormats: String)
        async throws
    {
        let broker = try EmbeddedBroker(
            topics: WorkerTestSupport.allTopics, partitions: 8, logger: WorkerTestSupport.logger)
        defer { broker.shutdown() }
        let inputs = WorkerTestSupport.inputs(count: maxInFlight == 1 ? 300 : 1200)
        try await PythonKafkaClient.produce(inputs, to: "push.unified", bootstrap: broker.bootstrapServers)

        let group = "worker-it-\(UInt32.random(in: 0...UInt32.max))"
        let configuration = PushWorkerConfiguration(
            bootstrapServers: broker.bootstrapServers, groupId: group,
            translator: TranslatorConfiguration(
                androidFormats: try #require(TranslatorConfiguration.androidFormats(from: androidFormats))),
            kafkaProperties: WorkerTestSupport.quickGroup, maxInFlightRecords: maxInFlight,
            commitInterval: .milliseconds(200))
        let worker = WorkerUnderTest(configuration: configuration, logger: WorkerTestSupport.logger)

        let readBack = try await PythonKafkaClient.dump(
            ["push.unified"], bootstrap: broker.bootstrapServers, expect: inputs.count)
        let expected = WorkerTestSupport.expectedOutputs(
            for: readBack, translator: Translator(configuration: configuration.translator))
        let written = try await PythonKafkaClient.dump(
            WorkerTestSupport.outputTopics, bootstrap: broker.bootstrapServers, expect: expected.count)
        // Let the last commits go out, then stop gracefully.
        try await Task.sleep(for: .milliseconds(600))
        try await worker.stop()

        let actual = written.map(WorkerTestSupport.output)
        let missing = WorkerTestSupport.missing(expected, from: actual)
        let extra = WorkerTestSupport.missing(actual, from: expected)
        #expect(missing.isEmpty, "missing \(missing.count), e.g. \(missing.prefix(3))")
        #expect(extra.isEmpty, "extra \(extra.count), e.g. \(extra.prefix(3))")
        #expect(actual.count == expected.count)
        #expect(
            Set(actual.map(\.topic)) == Set(WorkerTestSupport.outputTopics),
            "every output topic and the dead-letter topic are used")
        // A payload routed to Android by platform (no targets) reaches fcm only when fcm is routed.
        let androidOnly = actual.filter {
            $0.topic == "push.fcm" && String(decoding: $0.value, as: UTF8.self).contains("android only")
        }
        #expect(androidOnly.isEmpty == !androidFormats.contains("fcm"))
        #expect(WorkerTestSupport.orderViolations(written).isEmpty)

        let committed = try await PythonKafkaClient.committed(
            group: group, topic: "push.unified", bootstrap: broker.bootstrapServers)
        let ends = try await PythonKafkaClient.watermarks(topic: "push.unified", bootstrap: broker.bootstrapServers)
        #expect(committed == ends, "committed \(committed) vs end offsets \(ends)")
    }
}
