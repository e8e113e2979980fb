import Foundation
import Logging
import PushModel
import PushTranslation
import PushWorker
import PushgateKafka
import PushgateTestSupport
import ServiceLifecycle
import Testing

@Suite("Records the broker refuses become dead letters", .serialized, .timeLimit(.minutes(3)))
struct RefusedRecordTests {
    /// The broker refuses produce requests as too large (`pushgate broker --control`'s `error Produce
    /// MSG_SIZE_TOO_LARGE`): each refused output is replaced by its emit-stage dead letter
    /// (`payload_too_large`, the input's bytes), the worker goes on and commits every input.
    @Test func refusedOutputsAreDeadLetteredAndTheWorkerGoesOn() async throws {
        let broker = try EmbeddedBroker(
            topics: WorkerTestSupport.allTopics, partitions: 2, logger: WorkerTestSupport.logger)
        defer { broker.shutdown() }
        let payload = Array(#"{"message":{"title":"T","body":"B"},"data":{"n":1}}"#.utf8)
        let inputs = (0..<20).map { index in
            PythonKafkaClient.Record(key: Array("user-\(index)".utf8), value: payload, headers: [])
        }
        try await PythonKafkaClient.produce(inputs, to: "push.unified", bootstrap: broker.bootstrapServers)
        #expect(broker.perform(controlCommand: "error Produce MSG_SIZE_TOO_LARGE 3") == "ok")

        let group = "refused-\(UInt32.random(in: 0...UInt32.max))"
        let configuration = PushWorkerConfiguration(
            bootstrapServers: broker.bootstrapServers, groupId: group, kafkaProperties: WorkerTestSupport.quickGroup,
            maxInFlightRecords: 100, commitInterval: .milliseconds(200))
        let worker = WorkerUnderTest(configuration: configuration, logger: WorkerTestSupport.logger)

        // Each input gives an apns and an android-expandable output, or a dead letter in place of either.
        let written = try await PythonKafkaClient.dump(
            WorkerTestSupport.outputTopics, bootstrap: broker.bootstrapServers, expect: 40)
        try await Task.sleep(for: .milliseconds(800))
        let committed = try await PythonKafkaClient.committed(
            group: group, topic: "push.unified", bootstrap: broker.bootstrapServers)
        let ends = try await PythonKafkaClient.watermarks(topic: "push.unified", bootstrap: broker.bootstrapServers)
        try await worker.stop()  // the worker did not stop on the refusals: it ends normally here

        let outputs = written.map(WorkerTestSupport.output)
        let deadLetters = outputs.filter { $0.topic == "push.dlq" }
        #expect(!deadLetters.isEmpty, "some outputs were refused and replaced")
        for deadLetter in deadLetters {
            let headers = Dictionary(
                deadLetter.headers.map { ($0.name, String(decoding: $0.value ?? [], as: UTF8.self)) }
            ) { _, last in last }
            #expect(deadLetter.value == payload)
            #expect(headers["__connect.errors.stage"] == "emit")
            #expect(headers["__connect.errors.exception.class.name"] == "payload_too_large")
            #expect(headers["pushgate-format"] == "apns" || headers["pushgate-format"] == "android-expandable")
            #expect(headers["pushgate-errors"]?.contains("MSG_SIZE_TOO_LARGE") == true)
        }
        // Every input has one record per format: the output or its dead letter.
        for format in ["apns", "android-expandable"] {
            let topic = format == "apns" ? "push.apns" : "push.android.expandable"
            let delivered = outputs.filter { $0.topic == topic }.count
            let replaced = deadLetters.filter {
                $0.headers.contains { $0.name == "pushgate-format" && $0.value.map(Array.init) == Array(format.utf8) }
            }.count
            #expect(delivered + replaced == inputs.count, "\(format): \(delivered) written + \(replaced) dead letters")
        }
        #expect(committed == ends, "committed \(committed) vs end offsets \(ends)")
    }
}
