import Foundation
import PushgateKafka
import PushgateTestSupport
import Testing

/// `pushgate run` checks at start that the cluster has every topic it writes to.
@Suite("pushgate run checks its topics at start", .timeLimit(.minutes(2)))
struct RunStartCheckTests {
    /// An output topic the cluster does not have stops `pushgate run` at start, exit 1, naming the topic
    /// and how to fix it, before it joins its group (rather than once a record for the topic waits out
    /// `topic.metadata.propagation.max.ms`).
    @Test func aMissingOutputTopicStopsTheWorkerAtStart() throws {
        let path = try #require(PushgateBinary.path)
        let broker = try EmbeddedBroker(
            topics: ["push.unified", "push.apns", "push.dlq"], partitions: 1,
            logger: BrokerTesting.logger("broker", level: .error))
        defer { broker.shutdown() }
        #expect(broker.perform(controlCommand: "topic-error push.fcm UNKNOWN_TOPIC_OR_PART") == "ok")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["run", "--bootstrap-servers", broker.bootstrapServers, "--log-format", "text"]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        let started = ContinuousClock.now
        try process.run()
        // A worker that passed the check would run on: stopped (SIGTERM, exit 0) so that the test fails at once.
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { if process.isRunning { process.terminate() } }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(text)")
        #expect(
            text.contains(
                "cannot write to push.fcm (UNKNOWN_TOPIC_OR_PART): create the topic, or name one the cluster has"),
            "\(text)")
        #expect(text.contains("reached a cluster of 1 broker(s)"), "\(text)")
        #expect(!text.contains("producer connected") && !text.contains("partitions assigned"), "\(text)")
        #expect(ContinuousClock.now - started < .seconds(15))
    }
}
