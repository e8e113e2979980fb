import PushgateKafka
import Testing

/// What a metadata request tells of a cluster, on the embedded broker.
@Suite("Describing a cluster")
struct KafkaClusterTests {
    @Test func theEmbeddedBrokerIsLibrdkafkasMockCluster() async throws {
        let broker = try EmbeddedBroker(
            brokerCount: 2, topics: ["described"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let cluster = try await KafkaCluster.describe(
            bootstrapServers: broker.bootstrapServers, timeout: .seconds(10), logger: KafkaTestSupport.logger)
        #expect(cluster.brokers == 2)
        #expect(cluster.clusterID?.hasPrefix("mockCluster") == true)
        #expect(cluster.isLibrdkafkaMock)
    }

    @Test func anotherClusterIDIsNotTheMock() {
        #expect(!KafkaCluster.Description(brokers: 3, clusterID: "lkc-abc123").isLibrdkafkaMock)
        #expect(!KafkaCluster.Description(brokers: 3, clusterID: nil).isLibrdkafkaMock)
    }
}
