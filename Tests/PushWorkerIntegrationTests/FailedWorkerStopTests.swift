import Foundation
import PushWorker
import PushgateKafka
import PushgateTestSupport
import Testing

/// A worker that stops on a failure leaves its group at once: its partitions are revoked as it closes
/// its consumer, and that revocation must not wait for records in flight that will never be
/// acknowledged (the producer is already shut down).
@Suite("A failed worker stops without waiting out the revocation drain", .serialized, .timeLimit(.minutes(3)))
struct FailedWorkerStopTests {
    @Test func aFailedWorkerLeavesItsGroupWithoutWaitingForItsRecordsInFlight() async throws {
        // A permanent error: the record cannot be written, and the worker stops (SPEC section 7 keeps
        // its input uncommitted for the next worker).
        let broker = try await RefusalChainTests.brokerWithOneInput(failingProduceWith: "TOPIC_AUTHORIZATION_FAILED 1")
        defer { broker.shutdown() }

        let log = CapturedLog()
        let revokeDrainTimeout = Duration.seconds(60)
        let worker = WorkerUnderTest(broker: broker, log: log, revokeDrainTimeout: revokeDrainTimeout)
        try await waitUntil("the worker has its partition") {
            log.lines.contains { $0.hasPrefix("info partitions assigned") }
        }
        let assigned = ContinuousClock.now
        await #expect(throws: DeliveryFailure.self) { try await worker.waitUntilStopped() }
        #expect(
            ContinuousClock.now - assigned < revokeDrainTimeout / 2,
            "the worker stopped without waiting for its record in flight, which can never be acknowledged")

        let failed = try #require(log.lines.firstIndex { $0.hasPrefix("error stopping after a failure") })
        let revoked = try #require(log.lines.firstIndex { $0.hasPrefix("info partitions revoked") })
        #expect(failed < revoked, "the failure is told before the partitions are given up")
        let committed = try await PythonKafkaClient.committed(
            group: worker.group, topic: "push.unified", bootstrap: broker.bootstrapServers)
        #expect((committed["0"] ?? -1) <= 0, "the input that was not written is not committed: \(committed)")
    }
}
