import PushgateKafka
import Testing

@Suite("Explicit offset commits", .timeLimit(.minutes(2)))
struct KafkaCommitTests {
    @Test func aNewMemberResumesAfterTheCommittedOffset() async throws {
        let broker = try EmbeddedBroker(topics: ["commits"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaTestSupport.producer(for: broker)
        for index in 0..<10 {
            _ = try await producer.send(KafkaProducerMessage(topic: "commits", key: nil, value: [UInt8(index)]))
        }
        await producer.shutdown()
        let configuration = KafkaConsumerConfiguration(
            bootstrapServers: broker.bootstrapServers, groupId: "commits", topics: ["commits"],
            properties: KafkaTestSupport.quickGroup)

        let first = try KafkaConsumer(configuration: configuration, logger: KafkaTestSupport.logger)
        let firstRead = try await KafkaTestSupport.read(4, from: first)
        #expect(firstRead.map(\.offset) == [0, 1, 2, 3])
        #expect(try await first.assignment() == [KafkaTopicPartition(topic: "commits", partition: 0)])
        try await first.commit([KafkaTopicPartitionOffset(topic: "commits", partition: 0, offset: 4)])
        await first.close()

        let second = try KafkaConsumer(configuration: configuration, logger: KafkaTestSupport.logger)
        let secondRead = try await KafkaTestSupport.read(6, from: second)
        await second.close()
        #expect(secondRead.map(\.offset) == [4, 5, 6, 7, 8, 9])
    }

    @Test func revokeCommitsWhatTheListenerReturns() async throws {
        let broker = try EmbeddedBroker(topics: ["revoke"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaTestSupport.producer(for: broker)
        for index in 0..<5 {
            _ = try await producer.send(KafkaProducerMessage(topic: "revoke", key: nil, value: [UInt8(index)]))
        }
        await producer.shutdown()
        let configuration = KafkaConsumerConfiguration(
            bootstrapServers: broker.bootstrapServers, groupId: "revoke", topics: ["revoke"],
            properties: KafkaTestSupport.quickGroup)
        let listener = FixedRevokeListener(offset: 2)
        let first = try KafkaConsumer(
            configuration: configuration, logger: KafkaTestSupport.logger, rebalanceListener: listener)
        let read = try await KafkaTestSupport.read(5, from: first)
        #expect(read.allSatisfy { $0.assignmentEpoch == 1 })
        await first.close()  // revokes: commits offset 2

        let second = try KafkaConsumer(configuration: configuration, logger: KafkaTestSupport.logger)
        let again = try await KafkaTestSupport.read(3, from: second)
        await second.close()
        #expect(again.map(\.offset) == [2, 3, 4])
    }
}

/// Commits a fixed offset for every revoked partition.
private struct FixedRevokeListener: KafkaRebalanceListener {
    let offset: Int64
    func partitionsAssigned(_ partitions: [KafkaTopicPartition], epoch: UInt64) {}
    func partitionsRevoked(_ partitions: [KafkaTopicPartition], lost: Bool) -> [KafkaTopicPartitionOffset] {
        partitions.map { KafkaTopicPartitionOffset($0, offset: offset) }
    }
}
