import Foundation
import Logging
import PushModel
import PushTranslation
import PushWorker
import PushgateKafka
import PushgateTestSupport
import ServiceLifecycle
import Testing

/// A record the broker refuses as too large is replaced (an output by its dead letter, a dead letter by
/// its copy without value); these tests follow the chain past its end, and through a rebalance.
///
/// The order of events is fixed, not left to timing: the errors are injected before the worker starts,
/// the input has one output, and one produce request is in flight, so each produce request holds exactly
/// the one record of the chain that is being written.
@Suite("A refused record's chain never stops the worker", .serialized, .timeLimit(.minutes(3)))
struct RefusalChainTests {
    static let payload = Array(#"{"targets":["apns"],"message":{"title":"T","body":"B"}}"#.utf8)

    /// An embedded broker with one partition per topic and one input (`value`, key `user-1`), whose
    /// next Produce requests fail with `errors` (`CODE COUNT`): injected after the input is written, so
    /// only the worker's requests meet them.
    static func brokerWithOneInput(
        _ value: [UInt8] = payload, failingProduceWith errors: String
    ) async throws -> EmbeddedBroker {
        let broker = try EmbeddedBroker(
            topics: WorkerTestSupport.allTopics, partitions: 1, logger: WorkerTestSupport.logger)
        let input = PythonKafkaClient.Record(key: Array("user-1".utf8), value: value, headers: [])
        try await PythonKafkaClient.produce([input], to: "push.unified", bootstrap: broker.bootstrapServers)
        let answer = broker.perform(controlCommand: "error Produce \(errors)")
        guard answer == "ok" else {
            broker.shutdown()
            throw PythonKafkaClient.Failed(description: "error Produce \(errors): \(answer)")
        }
        return broker
    }

    /// Runs a worker until the broker's one input is committed, stops it gracefully (which throws if it
    /// had stopped on its own), and returns the one record it wrote, with its headers by name.
    static func theOneRecordWritten(
        broker: EmbeddedBroker, log: CapturedLog
    ) async throws -> (WorkerTestSupport.Output, [String: String]) {
        let worker = WorkerUnderTest(broker: broker, log: log)
        let written = try await PythonKafkaClient.dump(
            WorkerTestSupport.outputTopics, bootstrap: broker.bootstrapServers, expect: 1)
        let committed = try await worker.waitForCommit(of: ["0": 1])
        try await worker.stop()
        #expect(committed == ["0": 1])
        let records = written.map(WorkerTestSupport.output)
        #expect(records.count == 1)
        let record = try #require(records.first)
        let headers = Dictionary(record.headers.map { ($0.name, String(decoding: $0.value ?? [], as: UTF8.self)) }) {
            _, last in last
        }
        return (record, headers)
    }

    /// The output is refused, then its dead letter, then that dead letter without its value: nothing
    /// smaller is left, so the last is written again after a pause, and the worker goes on.
    @Test func aDeadLetterRefusedEvenWithoutItsValueIsWrittenAgain() async throws {
        let broker = try await Self.brokerWithOneInput(failingProduceWith: "MSG_SIZE_TOO_LARGE 3")
        defer { broker.shutdown() }

        let log = CapturedLog()
        let (deadLetter, headers) = try await Self.theOneRecordWritten(broker: broker, log: log)
        #expect(deadLetter.topic == "push.dlq")
        #expect(deadLetter.value.isEmpty, "written without its value")
        #expect(headers["pushgate-value-omitted"] == "\(Self.payload.count)")
        #expect(headers["pushgate-format"] == "apns")
        #expect(headers["__connect.errors.exception.class.name"] == "payload_too_large")
        #expect(
            log.lines.contains {
                $0.hasPrefix("warning record refused as too large with nothing smaller to write instead")
            })
    }

    /// An empty input's dead letter has an empty value already: refused once, it has nothing smaller to
    /// stand in for it, and is written again as it is (it stopped the worker, taken for a dead letter
    /// already written without its value).
    @Test func anEmptyInputsDeadLetterRefusedOnceIsWrittenAgain() async throws {
        let broker = try await Self.brokerWithOneInput([], failingProduceWith: "MSG_SIZE_TOO_LARGE 1")
        defer { broker.shutdown() }

        let (deadLetter, headers) = try await Self.theOneRecordWritten(broker: broker, log: CapturedLog())
        #expect(deadLetter.topic == "push.dlq")
        #expect(deadLetter.value.isEmpty)
        #expect(headers["__connect.errors.exception.class.name"] == "invalid_json")
        #expect(headers["pushgate-value-omitted"] == nil, "the input's own bytes, none omitted")
    }

    /// The broker keeps refusing: the chain ends in writing the last record again and again. A second
    /// member joins; the revocation's drain gives up on the record after its timeout, and the worker
    /// then leaves the record to the partition's new owner instead of writing it or stopping. Once the
    /// broker takes records again, the input is written and committed.
    @Test func aRecordRefusedWhileItsPartitionIsRevokedIsLeftToTheNewOwner() async throws {
        let broker = try await Self.brokerWithOneInput(failingProduceWith: "MSG_SIZE_TOO_LARGE 100000")
        defer { broker.shutdown() }

        let firstLog = CapturedLog()
        let first = WorkerUnderTest(broker: broker, log: firstLog)
        try await waitUntil("the first worker writes the last record again") {
            firstLog.lines.contains { $0.hasPrefix("warning record refused as too large with nothing smaller") }
        }
        let second = WorkerUnderTest(broker: broker, log: CapturedLog(), group: first.group)
        try await waitUntil("the first worker leaves the refused record to the new owner", timeout: .seconds(60)) {
            firstLog.lines.contains { $0.contains("its new owner reads the input again") }
        }
        let revoked = try #require(firstLog.lines.firstIndex { $0.hasPrefix("info partitions revoked") })
        let leftToOwner = try #require(
            firstLog.lines.firstIndex { $0.contains("its new owner reads the input again") })
        #expect(revoked < leftToOwner)

        #expect(broker.perform(controlCommand: "clear Produce") == "ok")
        _ = try await PythonKafkaClient.dump(
            WorkerTestSupport.outputTopics, bootstrap: broker.bootstrapServers, expect: 1)
        let committed = try await first.waitForCommit(of: ["0": 1])
        try await second.stop()
        try await first.stop()  // throws if the first worker stopped on its own
        #expect(committed == ["0": 1])
    }
}
