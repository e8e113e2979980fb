import CRdKafka
import Foundation
import PushgateTestSupport
import Testing

@testable import PushgateKafka

/// Commits everything it is asked to revoke at offset 1.
private struct CommittingListener: KafkaRebalanceListener {
    func partitionsAssigned(_ partitions: [KafkaTopicPartition], epoch: UInt64) {}
    func partitionsRevoked(_ partitions: [KafkaTopicPartition], lost: Bool) -> [KafkaTopicPartitionOffset] {
        partitions.map { KafkaTopicPartitionOffset($0, offset: 1) }
    }
}

/// SPEC 7: no commit waits for a coordinator without a deadline, the one made while partitions are revoked
/// included. A consumer whose bootstrap server never answers has no coordinator, which librdkafka's
/// synchronous `rd_kafka_commit` would wait for as long as the process lives.
@Suite("A commit with no coordinator to answer it gives up at its timeout", .timeLimit(.minutes(1)))
struct BoundedCommitTests {
    static let logger = BrokerTesting.logger("kafka-tests", level: .critical)
    static let partition = KafkaTopicPartition(topic: "t", partition: 0)
    static let offsets = [KafkaTopicPartitionOffset(partition, offset: 1)]

    /// Runs `body` on a thread of its own (it blocks, as librdkafka calls do) with a consumer client of a
    /// group whose bootstrap server (a closed port) never answers, ``partition`` assigned to `membership`;
    /// returns how long `body` took and its error. The short session timeout keeps the client's
    /// destruction, which waits for the abandoned commit, short.
    private func unreachableMember(
        _ membership: ConsumerGroupMembership, _ body: @escaping @Sendable (OpaquePointer) throws(KafkaError) -> Void
    ) async throws -> (took: Duration, error: KafkaError?) {
        let client = try RDKafkaClient.make(
            kind: .consumer,
            properties: [
                ("bootstrap.servers", "127.0.0.1:9"), ("group.id", "bounded-commit"), ("session.timeout.ms", "1000"),
            ],
            callbacks: RDKafkaCallbacks(logger: Self.logger, statisticsHandler: nil))
        return await withCheckedContinuation { continuation in
            Thread {
                let list = RDKafkaTopicPartitionList.make([KafkaTopicPartitionOffset(Self.partition, offset: 0)])
                membership.rebalance(handle: client.handle, event: RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS, list: list)
                rd_kafka_topic_partition_list_destroy(list)
                var failure: KafkaError?
                let took = ContinuousClock().measure {
                    do throws(KafkaError) {
                        try body(client.handle)
                    } catch {
                        failure = error
                    }
                }
                client.destroy()
                continuation.resume(returning: (took, failure))
            }.start()
        }
    }

    @Test func aCommitTimesOutAfterTheTimeItIsGiven() async throws {
        let membership = ConsumerGroupMembership(listener: nil, commitTimeoutMs: 20_000, logger: Self.logger)
        let (took, error) = try await unreachableMember(membership) { handle throws(KafkaError) in
            try membership.commit(Self.offsets, handle: handle, timeoutMs: 300)
        }
        #expect(error?.code == RD_KAFKA_RESP_ERR__TIMED_OUT.rawValue)
        #expect(took >= .milliseconds(300))
        #expect(took < .seconds(5))
    }

    @Test func noCommitWaitsLongerThanTheCommitTimeout() async throws {
        let membership = ConsumerGroupMembership(listener: nil, commitTimeoutMs: 300, logger: Self.logger)
        let (took, error) = try await unreachableMember(membership) { handle throws(KafkaError) in
            try membership.commit(Self.offsets, handle: handle, timeoutMs: 60_000)
        }
        #expect(error?.code == RD_KAFKA_RESP_ERR__TIMED_OUT.rawValue)
        #expect(took < .seconds(5), "asked for 60 s, the commit timeout is 300 ms")
    }

    /// The rebalance goes on at the commit timeout: the revoked partition is given up uncommitted.
    @Test func theCommitBeforeARevocationGivesUpAtTheCommitTimeout() async throws {
        let membership = ConsumerGroupMembership(
            listener: CommittingListener(), commitTimeoutMs: 300, logger: Self.logger)
        let (took, _) = try await unreachableMember(membership) { handle in
            let list = RDKafkaTopicPartitionList.make([KafkaTopicPartitionOffset(Self.partition, offset: 0)])
            defer { rd_kafka_topic_partition_list_destroy(list) }
            membership.rebalance(handle: handle, event: RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS, list: list)
        }
        #expect(took >= .milliseconds(300), "the commit was tried")
        #expect(took < .seconds(5))
        #expect(membership.assignedPartitions.isEmpty)
    }
}
