import PushgateKafka
import Synchronization
import Testing

@testable import PushWorker

@Suite("The in-flight bound, and the tracker over many records")
struct InFlightLimiterTests {
    @Test func aBatchWaitsUntilAllItsSlotsAreFree() async throws {
        let limiter = InFlightLimiter(limit: 10)
        try await limiter.acquire(8)
        let acquired = Flag()
        let waiting = Task {
            try await limiter.acquire(5)
            acquired.set()
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(!acquired.value, "5 slots asked, 2 free")
        limiter.release(2)
        try await Task.sleep(for: .milliseconds(50))
        #expect(!acquired.value, "5 slots asked, 4 free")
        limiter.release()
        try await waiting.value
        #expect(acquired.value)
        #expect(limiter.count == 10)
    }

    @Test func aBatchLargerThanTheBoundTakesTheWholeBound() async throws {
        let limiter = InFlightLimiter(limit: 3)
        try await limiter.acquire(50)
        #expect(limiter.count == 3)
        limiter.release(3)
        #expect(await limiter.waitUntilIdle(timeout: .seconds(1)))
    }

    @Test func aFailureWakesABatchWaitingForSlots() async throws {
        let limiter = InFlightLimiter(limit: 2)
        try await limiter.acquire(2)
        let waiting = Task { try await limiter.acquire(2) }
        try await Task.sleep(for: .milliseconds(20))
        limiter.fail(CancellationError())
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    /// The worker's reader checks for room, then takes one slot per record without waiting; a record it
    /// must take anyway (polled while the input was paused) goes over the bound until slots come back.
    @Test func aSlotTakenWithoutWaitingCountsAgainstTheBound() {
        let limiter = InFlightLimiter(limit: 2)
        #expect(limiter.hasRoom)
        limiter.take()
        #expect(limiter.hasRoom)
        limiter.take()
        #expect(!limiter.hasRoom)
        limiter.take()
        #expect(limiter.count == 3)
        limiter.release(2)
        #expect(limiter.hasRoom)
        #expect(limiter.count == 1)
    }

    @Test func recordsCommitInReadOrderAcrossCompaction() throws {
        let partition = KafkaTopicPartition(topic: "in", partition: 0)
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        // Enough records that the tracker drops its finished prefix (every 4096) while some are in flight.
        let messages = (0..<10_000).map {
            KafkaConsumerMessage(
                topic: "in", partition: 0, offset: Int64($0) * 2, key: nil, value: [], assignmentEpoch: 1)
        }
        let tickets = messages.indices.compactMap { tracker.begin(messages[$0], outputs: $0 % 7 == 0 ? 0 : 1) }
        #expect(tickets.count == messages.count)
        let pending = tickets.filter { $0.offset / 2 % 7 != 0 }
        // Acknowledge all but the last pending record, in reverse order: nothing past the first gap commits.
        for ticket in pending.dropLast().reversed() { #expect(tracker.acknowledge(ticket)) }
        let last = try #require(pending.last)
        #expect(tracker.takeCommittable() == [KafkaTopicPartitionOffset(partition, offset: last.offset - 1)])
        #expect(tracker.acknowledge(last))
        #expect(!tracker.acknowledge(last), "a record is finished once")
        #expect(
            tracker.takeCommittable() == [KafkaTopicPartitionOffset(partition, offset: Int64(messages.count) * 2 - 1)])
        #expect(tracker.inFlight == 0)
    }
}

/// A flag set from one task and read from another.
private final class Flag: Sendable {
    private let state = Atomic(false)
    func set() { state.store(true, ordering: .releasing) }
    var value: Bool { state.load(ordering: .acquiring) }
}
