import PushgateKafka
import Synchronization
import Testing

@testable import PushWorker

@Suite("Offsets commit only after a contiguous run of finished records")
struct OffsetTrackerTests {
    let partition = KafkaTopicPartition(topic: "in", partition: 0)

    func message(_ offset: Int64, epoch: UInt64 = 1) -> KafkaConsumerMessage {
        KafkaConsumerMessage(topic: "in", partition: 0, offset: offset, key: nil, value: [], assignmentEpoch: epoch)
    }

    @Test func aLaterRecordFinishingFirstWaitsForTheEarlierOne() throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        let first = try #require(tracker.begin(message(10), outputs: 2))
        let second = try #require(tracker.begin(message(11), outputs: 1))
        #expect(tracker.acknowledge(second))
        #expect(tracker.takeCommittable().isEmpty)
        #expect(!tracker.acknowledge(first))
        #expect(tracker.takeCommittable().isEmpty)
        #expect(tracker.acknowledge(first))
        #expect(tracker.takeCommittable() == [KafkaTopicPartitionOffset(partition, offset: 12)])
        #expect(tracker.takeCommittable().isEmpty, "an offset is offered once")
    }

    @Test func finishingInputsTogetherCommitsTheLongestFinishedRunOnly() throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        let tickets = try (20..<25).map { try #require(tracker.begin(message(Int64($0)), outputs: 3)) }
        // Inputs 21, 22 and 24 finished in one poll (their outputs all acknowledged), 20 and 23 not.
        tracker.finish([tickets[4], tickets[1], tickets[2]])
        #expect(tracker.takeCommittable().isEmpty, "20 is not finished")
        tracker.finish([tickets[0]])
        #expect(tracker.takeCommittable() == [KafkaTopicPartitionOffset(partition, offset: 23)])
        tracker.finish([tickets[0], tickets[3]])  // a repeated ticket changes nothing
        #expect(tracker.takeCommittable() == [KafkaTopicPartitionOffset(partition, offset: 25)])
        #expect(tracker.inFlight == 0)
    }

    @Test func finishingATicketOfAnEarlierAssignmentChangesNothing() throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        let stale = try #require(tracker.begin(message(5), outputs: 1))
        tracker.assign([partition], epoch: 2)
        let current = try #require(tracker.begin(message(5, epoch: 2), outputs: 1))
        tracker.finish([stale])
        #expect(tracker.takeCommittable().isEmpty)
        tracker.finish([current])
        #expect(tracker.takeCommittable() == [KafkaTopicPartitionOffset(partition, offset: 6)])
    }

    /// The tracker remembers where the partition of the last record is: partitions assigned or revoked
    /// since (which may move it) must not send a record to another partition's state.
    @Test func recordsGoToTheirOwnPartitionWhilePartitionsComeAndGo() throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        let first = try #require(tracker.begin(message(0), outputs: 1))
        // Enough partitions that the table grows and moves the first one's state.
        let others = (1...64).map { KafkaTopicPartition(topic: "in", partition: Int32($0)) }
        tracker.assign(others, epoch: 2)
        let second = try #require(tracker.begin(message(1), outputs: 1))
        let other = try #require(
            tracker.begin(
                KafkaConsumerMessage(topic: "in", partition: 7, offset: 40, key: nil, value: [], assignmentEpoch: 2),
                outputs: 1))
        tracker.finish([first, second, other])
        let committable = tracker.takeCommittable().sorted { $0.topicPartition.partition < $1.topicPartition.partition }
        #expect(
            committable == [
                KafkaTopicPartitionOffset(partition, offset: 2), KafkaTopicPartitionOffset(others[6], offset: 41),
            ])
        _ = tracker.revoke([partition], waitingUpTo: .zero)
        #expect(tracker.begin(message(2), outputs: 1) == nil, "a revoked partition takes no records")
        tracker.assign([partition], epoch: 3)
        #expect(tracker.begin(message(2), outputs: 1) == nil, "a record of the earlier assignment is refused")
        let again = try #require(tracker.begin(message(2, epoch: 3), outputs: 1))
        tracker.finish([again])
        #expect(tracker.takeCommittable() == [KafkaTopicPartitionOffset(partition, offset: 3)])
    }

    @Test func gapsInOffsetsDoNotBlockCommits() throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        let a = try #require(tracker.begin(message(3), outputs: 1))
        let b = try #require(tracker.begin(message(7), outputs: 1))
        tracker.acknowledge(a)
        tracker.acknowledge(b)
        #expect(tracker.takeCommittable() == [KafkaTopicPartitionOffset(partition, offset: 8)])
    }

    @Test func recordsOfAnEarlierAssignmentAreRefused() {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 2)
        #expect(tracker.begin(message(0, epoch: 1), outputs: 1) == nil)
        #expect(
            tracker.begin(
                KafkaConsumerMessage(topic: "other", partition: 0, offset: 0, key: nil, value: [], assignmentEpoch: 2),
                outputs: 1) == nil)
    }

    @Test func revokeReturnsWhatIsDoneAndForgetsThePartition() throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        let done = try #require(tracker.begin(message(0), outputs: 1))
        _ = try #require(tracker.begin(message(1), outputs: 1))
        tracker.acknowledge(done)
        let offsets = tracker.revoke([partition], waitingUpTo: .milliseconds(50))
        #expect(offsets == [KafkaTopicPartitionOffset(partition, offset: 1)])
        #expect(tracker.begin(message(2), outputs: 1) == nil)
        #expect(tracker.inFlight == 0)
    }

    /// Once the pipeline has stopped nothing in flight finishes: the revocation of leaving the group
    /// returns at once with what is finished, however long its drain may be.
    @Test func aRevocationAfterThePipelineStoppedDoesNotWait() throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        tracker.finish([try #require(tracker.begin(message(0), outputs: 1))])
        _ = try #require(tracker.begin(message(1), outputs: 1))
        tracker.pipelineDidStop()
        let started = ContinuousClock.now
        let offsets = tracker.revoke([partition], waitingUpTo: .seconds(60))
        #expect(ContinuousClock.now - started < .seconds(30), "the revocation did not wait for the record in flight")
        #expect(offsets == [KafkaTopicPartitionOffset(partition, offset: 1)])
    }

    /// A revocation already waiting for records in flight stops waiting when the pipeline stops.
    @Test func aWaitingRevocationEndsWhenThePipelineStops() async throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        _ = try #require(tracker.begin(message(5), outputs: 1))
        let started = ContinuousClock.now
        // On a thread of its own: a revocation blocks while it waits, as it does on the consumer's poll thread.
        let revocation = Task {
            try await DedicatedThread.run(name: "revoke") {
                tracker.revoke([self.partition], waitingUpTo: .seconds(60))
            }
        }
        // Once the revocation has begun, new records of the partition are refused.
        var next: Int64 = 6
        while let probe = tracker.begin(message(next), outputs: 1) {
            tracker.finish([probe])
            next += 1
            await Task.yield()
        }
        tracker.pipelineDidStop()
        #expect(try await revocation.value.isEmpty, "nothing finished before the record in flight")
        #expect(ContinuousClock.now - started < .seconds(30), "the revocation ended when the pipeline stopped")
    }

    /// A revocation on the thread that also serves delivery reports spends its wait serving them: the
    /// record in flight finishes during the wait, and the revocation returns its offset at once.
    @Test func aRevocationServingReportsWhileItWaitsReturnsOnceTheyFinishItsRecords() throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        let inFlight = try #require(tracker.begin(message(7), outputs: 1))
        let serves = Mutex(0)
        let started = ContinuousClock.now
        let offsets = tracker.revoke([partition], waitingUpTo: .seconds(60)) { wait in
            #expect(wait <= .milliseconds(10))
            // The third call serves the record's report.
            let call = serves.withLock { serves in
                serves += 1
                return serves
            }
            if call == 3 { tracker.finish([inFlight]) }
        }
        #expect(serves.withLock { $0 } == 3, "served until the record finished, then no more")
        #expect(offsets == [KafkaTopicPartitionOffset(partition, offset: 8)])
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func failedCommitsAreOfferedAgain() throws {
        let tracker = OffsetTracker()
        tracker.assign([partition], epoch: 1)
        tracker.acknowledge(try #require(tracker.begin(message(0), outputs: 1)))
        let offsets = tracker.takeCommittable()
        tracker.commitFailed(offsets)
        #expect(tracker.takeCommittable() == offsets)
    }
}

extension OffsetTrackerTests {
    @Suite("A ticket stays current until its partition is revoked or reassigned")
    struct Currency {
        let partition = OffsetTrackerTests().partition
        func message(_ offset: Int64, epoch: UInt64 = 1) -> KafkaConsumerMessage {
            OffsetTrackerTests().message(offset, epoch: epoch)
        }

        @Test func aRevokedPartitionsTicketIsNoLongerCurrent() throws {
            let tracker = OffsetTracker()
            tracker.assign([partition], epoch: 1)
            let ticket = try #require(tracker.begin(message(3), outputs: 1))
            #expect(tracker.isCurrent(ticket))
            _ = tracker.revoke([partition], waitingUpTo: .zero)
            #expect(!tracker.isCurrent(ticket))
        }

        @Test func aTicketOfAnEarlierAssignmentIsNotCurrent() throws {
            let tracker = OffsetTracker()
            tracker.assign([partition], epoch: 1)
            let stale = try #require(tracker.begin(message(3), outputs: 1))
            tracker.assign([partition], epoch: 2)
            #expect(!tracker.isCurrent(stale))
            let current = try #require(tracker.begin(message(3, epoch: 2), outputs: 1))
            #expect(tracker.isCurrent(current))
        }

        /// While a revocation waits for the partition's records in flight, they stay current, so that their
        /// reports can finish them and the revocation commit them.
        @Test func aTicketBeingDrainedStaysCurrent() async throws {
            let tracker = OffsetTracker()
            tracker.assign([partition], epoch: 1)
            let ticket = try #require(tracker.begin(message(7), outputs: 1))
            let started = ContinuousClock.now
            // On a thread of its own: a revocation blocks while it waits, as it does on the consumer's poll thread.
            let revocation = Task {
                try await DedicatedThread.run(name: "revoke") {
                    tracker.revoke([self.partition], waitingUpTo: .seconds(30))
                }
            }
            // Probe records are refused once the revocation has begun; those registered before are finished.
            var next: Int64 = 8
            while let probe = tracker.begin(message(next), outputs: 1) {
                tracker.finish([probe])
                next += 1
                await Task.yield()
            }
            #expect(tracker.isCurrent(ticket))
            tracker.finish([ticket])
            #expect(try await revocation.value == [KafkaTopicPartitionOffset(partition, offset: next)])
            #expect(
                ContinuousClock.now - started < .seconds(15),
                "the revocation ended when its last record finished, not at its timeout")
            #expect(!tracker.isCurrent(ticket))
        }
    }
}
