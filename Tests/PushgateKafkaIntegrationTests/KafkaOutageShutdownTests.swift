import PushgateKafka
import Testing

/// Commits everything it is asked to revoke at the offset it was told.
private struct CommittingListener: KafkaRebalanceListener {
    let offset: Int64
    func partitionsAssigned(_ partitions: [KafkaTopicPartition], epoch: UInt64) {}
    func partitionsRevoked(_ partitions: [KafkaTopicPartition], lost: Bool) -> [KafkaTopicPartitionOffset] {
        partitions.map { KafkaTopicPartitionOffset($0, offset: offset) }
    }
}

/// SPEC 7: with every broker of the cluster unresponsive, a commit and leaving the group (whose revocation
/// commits too) end within their timeouts, instead of waiting for the coordinator to answer.
///
/// The brokers keep their connections and answer nothing for two minutes (a hung cluster, the harder case
/// for a bounded shutdown than refused connections). Taking them down instead (`setBrokerDown`) makes
/// librdkafka 2.0.2's mock cluster re-bind each listening port, and it aborts the whole process if that
/// bind fails; in a test binary that runs suites in parallel, that is a crash of every test.
@Suite("Commits and closes with every broker unresponsive", .timeLimit(.minutes(2)))
struct KafkaOutageShutdownTests {
    /// A consumer that has joined its group and read the 5 records of a one-partition topic, then every
    /// broker made to answer nothing for two minutes; `body` gets it.
    private func consumerInOutage(
        _ name: String, commitTimeoutMs: Int32 = 10_000, body: (KafkaConsumer) async throws -> Void
    ) async throws {
        let broker = try EmbeddedBroker(brokerCount: 3, topics: [name], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaTestSupport.producer(for: broker)
        for index in 0..<5 {
            _ = try await producer.send(KafkaProducerMessage(topic: name, key: nil, value: [UInt8(index)]))
        }
        await producer.shutdown()
        let consumer = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                bootstrapServers: broker.bootstrapServers, groupId: name, topics: [name],
                properties: KafkaTestSupport.quickGroup, commitTimeoutMs: commitTimeoutMs),
            logger: KafkaTestSupport.logger, rebalanceListener: CommittingListener(offset: 5))
        #expect(try await KafkaTestSupport.read(5, from: consumer).map(\.offset) == [0, 1, 2, 3, 4])
        for id in 1...broker.brokerCount { try broker.setRoundTripTime(broker: Int32(id), milliseconds: 120_000) }
        try await body(consumer)
        await consumer.close(timeout: .seconds(1))
    }

    @Test func aCommitEndsWithinItsTimeout() async throws {
        try await consumerInOutage("outage.commit") { consumer in
            let clock = ContinuousClock()
            let took = await clock.measure {
                await #expect(throws: KafkaError.self) {
                    try await consumer.commit(
                        [KafkaTopicPartitionOffset(topic: "outage.commit", partition: 0, offset: 5)],
                        timeout: .seconds(1))
                }
            }
            #expect(took < .seconds(4), "a 1 s commit took \(took)")
        }
    }

    /// Leaving the group revokes the partition, whose commit waits at most the commit timeout (here 1 s);
    /// the close itself is given up at its timeout whatever librdkafka still waits for.
    @Test func closingEndsWithinItsTimeout() async throws {
        try await consumerInOutage("outage.close", commitTimeoutMs: 1000) { consumer in
            let clock = ContinuousClock()
            let took = await clock.measure { _ = await consumer.close(timeout: .seconds(3)) }
            #expect(took < .seconds(6), "a close with a 3 s timeout took \(took)")
            await #expect(throws: KafkaError.self) {
                try await consumer.commit([KafkaTopicPartitionOffset(topic: "outage.close", partition: 0, offset: 5)])
            }
        }
    }
}
