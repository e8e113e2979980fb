import Logging
import PushModel
import PushgateKafka
import Synchronization
import Testing

@testable import PushDelivery

/// The commit rule of SPEC 10.6: a partition's offset advances past a record only when every device of it
/// and of every earlier record has a final outcome and its receipts are acknowledged.
struct CommitRuleTests {
    typealias F = WorkerFixtures
    let partition = KafkaTopicPartition(topic: "push.apns", partition: 0)

    private func pipeline(_ delivery: RecordDelivery, tracker: OffsetTracker, limiter: InFlightLimiter)
        -> RecordPipeline
    {
        RecordPipeline(delivery: delivery, tracker: tracker, limiter: limiter, tasks: RecordTasks())
    }

    private func start(_ pipeline: RecordPipeline, offsets: [Int64], keys: [String]) throws {
        for (offset, key) in zip(offsets, keys) {
            pipeline.limiter.take()
            let ticket = try #require(pipeline.tracker.begin(partition, offset: offset, epoch: 1, outputs: 1))
            pipeline.start(F.record(offset: offset, key: key), ticket: ticket)
        }
    }

    @Test func aRecordFinishedOutOfOrderWaitsForTheEarlierOne() async throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        let limiter = InFlightLimiter(limit: 10)
        let slow = Gate()
        let sender = ScriptedSender([:], gates: ["slow": slow])
        let directory = InMemoryDirectory([F.device("slow", audience: "a"), F.device("fast", audience: "b")])
        let receipts = InMemoryReceipts()
        let delivery = F.delivery(senders: [sender], directory: directory, receipts: receipts)
        try start(pipeline(delivery, tracker: tracker, limiter: limiter), offsets: [10, 11], keys: ["a", "b"])
        // The second record finishes; the first waits at its gate.
        try await waitUntil { receipts.receipts.contains { $0.key == "fast" } && limiter.count == 1 }
        #expect(tracker.takeCommittable().isEmpty)
        slow.open()
        #expect(await limiter.waitUntilIdle(timeout: .seconds(60)))
        #expect(tracker.takeCommittable() == [KafkaTopicPartitionOffset(partition, offset: 12)])
    }

    @Test func aRecordIsNotFinishedUntilEveryDeviceAndReceiptIs() async throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        let limiter = InFlightLimiter(limit: 10)
        let receiptGate = Gate()
        let receipts = GatedReceipts(gate: receiptGate)
        let directory = InMemoryDirectory([F.device("d1", audience: "a"), F.device("d2", audience: "a")])
        let delivery = F.delivery(senders: [ScriptedSender([:])], directory: directory, receipts: receipts)
        try start(pipeline(delivery, tracker: tracker, limiter: limiter), offsets: [3], keys: ["a"])
        try await waitUntil { receipts.waiting == 2 }
        #expect(tracker.takeCommittable().isEmpty)
        receiptGate.open()
        #expect(await limiter.waitUntilIdle(timeout: .seconds(60)))
        #expect(tracker.takeCommittable() == [KafkaTopicPartitionOffset(partition, offset: 4)])
    }

    @Test func anAbandonedRecordIsNeverCommitted() async throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        let limiter = InFlightLimiter(limit: 10)
        let sender = ScriptedSender(["stuck": [.transient(AnswerDetails(status: 503), retryAfter: nil)]])
        let directory = InMemoryDirectory([F.device("stuck", audience: "a"), F.device("ok", audience: "b")])
        let tasks = RecordTasks()
        let delivery = F.delivery(senders: [sender], directory: directory, receipts: InMemoryReceipts())
        let pipeline = RecordPipeline(delivery: delivery, tracker: tracker, limiter: limiter, tasks: tasks)
        try start(pipeline, offsets: [0, 1], keys: ["a", "b"])
        try await waitUntil { limiter.count == 1 }
        tasks.cancelAll()
        #expect(await limiter.waitUntilIdle(timeout: .seconds(60)))
        #expect(tracker.takeCommittable().isEmpty)
    }

    @Test func aReceiptThatCannotBeWrittenFailsTheWorkerAndIsNotCommitted() async throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        let limiter = InFlightLimiter(limit: 10)
        let delivery = F.delivery(
            senders: [ScriptedSender([:])], directory: InMemoryDirectory([F.device("d1", audience: "a")]),
            receipts: FailingReceipts())
        try start(pipeline(delivery, tracker: tracker, limiter: limiter), offsets: [0], keys: ["a"])
        #expect(await limiter.waitUntilIdle(timeout: .seconds(60)))
        #expect(limiter.firstFailure is ReceiptFailure)
        #expect(tracker.takeCommittable().isEmpty)
    }
}

/// Waits (polling every 5 ms, up to 60 s: the cooperative pool is shared with every other suite of the
/// run) until `condition` holds: the tests watch other tasks' progress.
func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within 60 s")
            return
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// Receipts acknowledged only once the gate opens.
final class GatedReceipts: ReceiptWriter {
    private let gate: Gate
    private let count = Mutex(0)
    init(gate: Gate) { self.gate = gate }
    func write(_ receipt: Receipt) async throws {
        count.withLock { $0 += 1 }
        await gate.wait()
    }
    var waiting: Int { count.withLock { $0 } }
}

/// Receipts that cannot be written.
struct FailingReceipts: ReceiptWriter {
    struct Refused: Error {}
    func write(_ receipt: Receipt) async throws { throw Refused() }
}

/// A revocation cancels the records of its partitions once it has taken their finished offsets.
struct RevocationTests {
    typealias F = WorkerFixtures

    @Test func theRecordsOfARevokedPartitionAreCancelledOthersGoOn() async throws {
        let (p0, p1) = (
            KafkaTopicPartition(topic: "push.apns", partition: 0), KafkaTopicPartition(topic: "push.apns", partition: 1)
        )
        let tracker = OffsetTracker()
        tracker.assign([p0, p1], epoch: 1)
        let limiter = InFlightLimiter(limit: 10)
        let tasks = RecordTasks()
        let sender = ScriptedSender(["stuck": [.transient(AnswerDetails(status: 503), retryAfter: nil)]])
        let delivery = F.delivery(
            senders: [sender], directory: InMemoryDirectory([F.device("stuck", audience: "a")]),
            receipts: InMemoryReceipts())
        let pipeline = RecordPipeline(delivery: delivery, tracker: tracker, limiter: limiter, tasks: tasks)
        for partition in [p0, p1] {
            limiter.take()
            let ticket = try #require(tracker.begin(partition, offset: 0, epoch: 1, outputs: 1))
            pipeline.start(F.record(offset: 0, key: "a"), ticket: ticket)
        }
        let listener = RecordCancellingRebalanceListener(
            wrapped: OffsetTrackingRebalanceListener(tracker: tracker, revokeDrainTimeout: .zero), tasks: tasks)
        #expect(listener.partitionsRevoked([p0], lost: false).isEmpty)
        try await waitUntil { tasks.count == 1 && limiter.count == 1 }
        #expect(tasks.count == 1)
        tasks.cancelAll()
        #expect(await limiter.waitUntilIdle(timeout: .seconds(60)))
        #expect(tracker.takeCommittable().isEmpty)
    }
}
