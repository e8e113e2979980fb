import Foundation
import Logging
import PushModel
import PushTranslation
import PushWorker
import PushgateKafka
import PushgateTestSupport
import ServiceLifecycle
import Testing

@Suite("Backpressure: the input pauses, the member stays in the group", .serialized, .timeLimit(.minutes(5)))
struct BackpressureTests {
    /// The output is down (every Produce request fails with a retriable error) for 2.5 times
    /// `max.poll.interval.ms` while far more input waits than the worker may hold: the worker pauses its
    /// partitions and keeps polling, so it is never kicked out of the group; once the output is back,
    /// every output is written exactly once and the input is committed.
    @Test func anOutputOutageLongerThanMaxPollIntervalCausesNoRebalanceNoLossAndNoDuplicate() async throws {
        let broker = try EmbeddedBroker(
            topics: WorkerTestSupport.allTopics, partitions: 4, logger: WorkerTestSupport.logger)
        defer { broker.shutdown() }
        // More than the in-flight bound (100) and the consumer's buffer (1000) together.
        let inputs = WorkerTestSupport.inputs(count: 3000)
        try await PythonKafkaClient.produce(inputs, to: "push.unified", bootstrap: broker.bootstrapServers)
        let readBack = try await PythonKafkaClient.dump(
            ["push.unified"], bootstrap: broker.bootstrapServers, expect: inputs.count)

        let produce = try #require(KafkaAPIKey.key(named: "Produce"))
        let retriable = try #require(KafkaError.code(named: "NOT_ENOUGH_REPLICAS"))
        try broker.pushRequestErrors(apiKey: produce, errors: Array(repeating: retriable, count: 100_000))

        let group = "backpressure-\(UInt32.random(in: 0...UInt32.max))"
        // One produce request in flight: see WorkerTestSupport.producerFaultSafe.
        let configuration = PushWorkerConfiguration(
            bootstrapServers: broker.bootstrapServers, groupId: group,
            kafkaProperties: WorkerTestSupport.quickGroup.merging(WorkerTestSupport.producerFaultSafe) { $1 }
                .merging(["max.poll.interval.ms": "10000"]) { $1 },
            maxInFlightRecords: 100, commitInterval: .milliseconds(200))
        let health = WorkerHealth()
        let worker = WorkerUnderTest(configuration: configuration, logger: WorkerTestSupport.logger, health: health)

        let clock = ContinuousClock()
        let joinDeadline = clock.now + .seconds(30)
        while health.assignedPartitionCount < 4, clock.now < joinDeadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(health.assignedPartitionCount == 4, "the worker joined the group with every partition")
        // The outage: 25 s, against max.poll.interval.ms 10 s. Any rebalance shows as a moment with fewer
        // partitions assigned (the session timeout keeps a rejoin away for seconds).
        var fewestAssigned = health.assignedPartitionCount
        let outageEnd = clock.now + .seconds(25)
        while clock.now < outageEnd {
            try await Task.sleep(for: .milliseconds(50))
            fewestAssigned = min(fewestAssigned, health.assignedPartitionCount)
        }
        let writtenDuringOutage = try await PythonKafkaClient.watermarks(
            topic: "push.apns", bootstrap: broker.bootstrapServers)
        try broker.clearRequestErrors(apiKey: produce)

        let expected = WorkerTestSupport.expectedOutputs(
            for: readBack, translator: Translator(configuration: configuration.translator))
        let written = try await PythonKafkaClient.dump(
            WorkerTestSupport.outputTopics, bootstrap: broker.bootstrapServers, expect: expected.count, allowShort: true
        )
        try await Task.sleep(for: .milliseconds(600))
        let committed = try await PythonKafkaClient.committed(
            group: group, topic: "push.unified", bootstrap: broker.bootstrapServers)
        let failureBeforeShutdown = health.fatalError
        try await worker.stop()

        #expect(writtenDuringOutage.values.reduce(0, +) == 0, "the output was really down")
        #expect(fewestAssigned == 4, "no rebalance during the outage")
        let actual = written.map(WorkerTestSupport.output)
        let missing = WorkerTestSupport.missing(expected, from: actual)
        let extra = WorkerTestSupport.missing(actual, from: expected)
        // Everything that tells a lost record from a late one, should this ever fail again.
        #expect(
            missing.isEmpty,
            """
            missing \(missing.count) of \(expected.count) (\(written.count) written): \
            \(missing.prefix(5).map { "\($0.topic) from \($0.source ?? "?")" }); committed \(committed); \
            worker failure before shutdown: \(failureBeforeShutdown ?? "none")
            """)
        #expect(extra.isEmpty, "duplicated or extra \(extra.count), e.g. \(extra.prefix(3))")
        #expect(WorkerTestSupport.orderViolations(written).isEmpty)
        let ends = try await PythonKafkaClient.watermarks(topic: "push.unified", bootstrap: broker.bootstrapServers)
        #expect(committed == ends, "committed \(committed) vs end offsets \(ends)")
    }
}
