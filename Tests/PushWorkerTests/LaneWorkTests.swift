import PushgateKafka
import Testing

@testable import PushWorker

@Suite("Records are dealt to lanes by key, in read order")
struct LaneWorkTests {
    private func message(_ offset: Int64, key: String?, partition: Int32 = 0) -> KafkaConsumerMessage {
        KafkaConsumerMessage(
            topic: "in", partition: partition, offset: offset, key: key.map { Array($0.utf8) }, value: [])
    }

    @Test(arguments: [2, 3, 8])
    func aKeyAlwaysTakesTheSameLaneAndEachLaneKeepsReadOrder(lanes: Int) {
        let batch = (0..<600).map { message(Int64($0), key: "user-\($0 % 37)", partition: Int32($0 % 5)) }
        let dealt = LaneWork.deal(batch, into: lanes)
        #expect(dealt.count == lanes)
        #expect(dealt.flatMap { $0 }.sorted() == Array(batch.indices), "every record once")
        for indices in dealt { #expect(indices == indices.sorted(), "read order within a lane") }
        var laneOfKey: [[UInt8]: Int] = [:]
        for (lane, indices) in dealt.enumerated() {
            for index in indices {
                let key = batch[index].key!
                #expect(laneOfKey[key, default: lane] == lane, "key \(key) in two lanes")
                laneOfKey[key] = lane
            }
        }
        #expect(dealt.filter { !$0.isEmpty }.count == lanes, "37 keys spread over every lane")
    }

    /// Records without a key have no order to keep: they take the lanes in turn, so that a topic without
    /// keys (or with one partition) still translates on every core.
    @Test func recordsWithoutAKeyTakeTheLanesInTurn() {
        let batch = (0..<40).map { message(Int64($0), key: nil, partition: 0) }
        let dealt = LaneWork.deal(batch, into: 2)
        #expect(dealt[0] == Array(stride(from: 0, to: 40, by: 2)))
        #expect(dealt[1] == Array(stride(from: 1, to: 40, by: 2)))
    }

    @Test func oneLaneTakesEverything() {
        let batch = (0..<10).map { message(Int64($0), key: "k\($0)") }
        #expect(LaneWork.deal(batch, into: 1) == [Array(0..<10)])
    }

    @Test func theLaneOfAKeyDoesNotDependOnItsPartitionOrOffset() {
        let a = LaneWork.lane(of: message(1, key: "same", partition: 0), at: 0, lanes: 4)
        let b = LaneWork.lane(of: message(900, key: "same", partition: 3), at: 7, lanes: 4)
        #expect(a == b)
    }

    /// A lane skips a record whose partition a rebalance revoked after the batch was read: its new owner
    /// reads it again.
    @Test func aRecordOfARevokedPartitionIsNotProduced() {
        let tracker = OffsetTracker()
        let first = KafkaTopicPartition(topic: "in", partition: 0)
        let second = KafkaTopicPartition(topic: "in", partition: 1)
        tracker.assign([first, second], epoch: 1)
        let batch = [
            KafkaConsumerMessage(topic: "in", partition: 0, offset: 5, key: nil, value: [], assignmentEpoch: 1),
            KafkaConsumerMessage(topic: "in", partition: 1, offset: 9, key: nil, value: [], assignmentEpoch: 1),
            KafkaConsumerMessage(topic: "in", partition: 1, offset: 10, key: nil, value: [], assignmentEpoch: 0),
        ]
        let generation = tracker.generation
        let work = LaneWork(
            batch: batch, indices: [0, 1, 2], tickets: tracker.begin(batch) { _ in 1 }, generation: generation,
            readAtMs: 0)
        #expect(work.currentTicket(at: 0, in: tracker) != nil)
        #expect(work.currentTicket(at: 1, in: tracker) != nil)
        #expect(work.currentTicket(at: 2, in: tracker) == nil, "read under an earlier assignment")
        _ = tracker.revoke([first], waitingUpTo: .zero)
        #expect(work.currentTicket(at: 0, in: tracker) == nil, "partition 0 was revoked")
        #expect(work.currentTicket(at: 1, in: tracker)?.offset == 9, "partition 1 is still assigned")
    }
}
