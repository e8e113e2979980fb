import Foundation
import Kafka
import PushWorker
import ServiceLifecycle
import Testing
import PushgateTestSupport

@Suite("Passthrough against the embedded broker, checked by an independent client", .serialized, .timeLimit(.minutes(3)))
struct PassthroughTests {
    /// `fannedOut`: inputs given no records are finished at once, inputs given several are finished when
    /// all are acknowledged; every input is committed either way, and exactly the given records are
    /// written (with 50 in flight, so that slots freed by the empty inputs are needed).
    @Test func fannedOutInputsWithNoneOrSeveralRecordsAreAllWrittenAndCommitted() async throws {
        let topics = ["bench.in", "bench.a", "bench.b"]
        let broker = try EmbeddedBroker(topics: topics, partitions: 4, logger: WorkerTestSupport.logger)
        defer { broker.shutdown() }
        let inputs = (0..<400).map { index in
            PythonKafkaClient.Record(key: Array("k\(index % 37)".utf8), value: Array("\(index)".utf8), headers: [])
        }
        try await PythonKafkaClient.produce(inputs, to: "bench.in", bootstrap: broker.bootstrapServers)

        let group = "passthrough-\(UInt32.random(in: 0...UInt32.max))"
        var configuration = PushWorkerConfiguration(
            bootstrapServers: broker.bootstrapServers, inputTopic: "bench.in",
            kafkaProperties: WorkerTestSupport.quickGroup, maxInFlightRecords: 50)
        configuration.groupId = group
        configuration.commitInterval = .milliseconds(200)
        // Every third input gives nothing; the others one record to each of two topics.
        let passthrough = Passthrough(
            configuration: configuration,
            outputs: .fannedOut { message in
                guard let number = Int(String(decoding: message.value, as: UTF8.self)), number % 3 != 0 else { return [] }
                return ["bench.a", "bench.b"].map { KafkaProducerMessage(topic: $0, key: message.key, value: message.value) }
            },
            logger: WorkerTestSupport.logger)
        let services = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: passthrough, successTerminationBehavior: .gracefullyShutdownGroup)],
            logger: WorkerTestSupport.logger))
        let running = Task { try await services.run() }

        let given = (0..<400).filter { $0 % 3 != 0 }
        let written = try await PythonKafkaClient.dump(
            ["bench.a", "bench.b"], bootstrap: broker.bootstrapServers, expect: given.count * 2)
        try await Task.sleep(for: .milliseconds(600))
        await services.triggerGracefulShutdown()
        try await running.value

        for topic in ["bench.a", "bench.b"] {
            let values = written.filter { $0.topic == topic }.map { Int(String(decoding: $0.valueBytes, as: UTF8.self)) ?? -1 }
            #expect(values.sorted() == given, "\(topic): exactly the inputs that were given records")
        }
        let committed = try await PythonKafkaClient.committed(group: group, topic: "bench.in", bootstrap: broker.bootstrapServers)
        let ends = try await PythonKafkaClient.watermarks(topic: "bench.in", bootstrap: broker.bootstrapServers)
        #expect(committed == ends, "committed \(committed) vs end offsets \(ends)")
    }
}
