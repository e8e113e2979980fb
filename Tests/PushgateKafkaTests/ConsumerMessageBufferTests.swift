import Testing

@testable import PushgateKafka

/// The hand-over between the consumer's poll thread and the task reading ``KafkaConsumer/messages``:
/// batches go out as the poll thread pushed them, split only when larger than asked for, in order.
@Suite("The consumer's message buffer")
struct ConsumerMessageBufferTests {
    private static func messages(_ offsets: Range<Int64>) -> [KafkaConsumerMessage] {
        offsets.map { KafkaConsumerMessage(topic: "t", partition: 0, offset: $0, key: nil, value: [UInt8($0)]) }
    }

    @Test func aPushedBatchGoesOutWholeWhenItFitsAndSplitWhenItDoesNot() async throws {
        let buffer = ConsumerMessageBuffer(capacity: 100)
        buffer.push(Self.messages(0..<3))
        buffer.push(Self.messages(3..<8))
        #expect(buffer.room == 92)

        // One pushed batch at a time: the first fits, so it goes out as it came, without the second.
        #expect(try await buffer.nextBatch(maxCount: 10).map(\.offset) == [0, 1, 2])
        // The second does not fit in 2: it is split, and what is left of it comes next.
        #expect(try await buffer.nextBatch(maxCount: 2).map(\.offset) == [3, 4])
        #expect(buffer.room == 97)
        #expect(try await buffer.nextBatch(maxCount: 10).map(\.offset) == [5, 6, 7])
        #expect(buffer.room == 100)
    }

    @Test func aWaitingTaskGetsTheNextPushAndTheEndAfterIt() async throws {
        let buffer = ConsumerMessageBuffer(capacity: 10)
        async let waited = buffer.nextBatch(maxCount: 4)
        // The push may come before or after the task waits: either way it gets the first 4, in order.
        try await Task.sleep(for: .milliseconds(50))
        buffer.push(Self.messages(0..<6))
        #expect(try await waited.map(\.offset) == [0, 1, 2, 3])
        buffer.finish()
        #expect(try await buffer.nextBatch(maxCount: 4).isEmpty, "records buffered when it finishes are dropped")
    }
}

@Suite("Topic partitions as keys")
struct KafkaTopicPartitionTests {
    @Test func theSamePartitionNumberOfTwoTopicsIsTwoKeys() {
        // The hash is the partition number only; equality still compares the topics.
        var epochs: [KafkaTopicPartition: Int] = [:]
        epochs[KafkaTopicPartition(topic: "a", partition: 3)] = 1
        epochs[KafkaTopicPartition(topic: "b", partition: 3)] = 2
        #expect(epochs.count == 2)
        #expect(epochs[KafkaTopicPartition(topic: "a", partition: 3)] == 1)
        #expect(epochs[KafkaTopicPartition(topic: "b", partition: 3)] == 2)
        #expect(epochs[KafkaTopicPartition(topic: "c", partition: 3)] == nil)
    }
}
