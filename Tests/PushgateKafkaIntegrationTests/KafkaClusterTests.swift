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

    /// A topic the cluster answers about with `UNKNOWN_TOPIC_OR_PART` is named, in the order asked; one it
    /// has, and one it creates when asked (the mock creates any topic a client asks about, as a cluster with
    /// `auto.create.topics.enable` does), are not.
    @Test func topicsTheClusterDoesNotHaveAreNamed() async throws {
        let broker = try EmbeddedBroker(topics: ["made"], partitions: 2, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        for hidden in ["hidden.b", "hidden.a"] {
            #expect(broker.perform(controlCommand: "topic-error \(hidden) UNKNOWN_TOPIC_OR_PART") == "ok")
        }
        let cluster = try await KafkaCluster.describe(
            bootstrapServers: broker.bootstrapServers, topics: ["made", "hidden.b", "created.when.asked", "hidden.a"],
            timeout: .seconds(10), logger: KafkaTestSupport.logger)
        #expect(
            cluster.unavailableTopics.map(\.description) == [
                "hidden.b (UNKNOWN_TOPIC_OR_PART)", "hidden.a (UNKNOWN_TOPIC_OR_PART)",
            ])
        #expect(broker.perform(controlCommand: "topic-error hidden.a NO_ERROR") == "ok")
        let later = try await KafkaCluster.describe(
            bootstrapServers: broker.bootstrapServers, topics: ["hidden.a", "hidden.b"], timeout: .seconds(10),
            logger: KafkaTestSupport.logger)
        #expect(later.unavailableTopics.map(\.name) == ["hidden.b"])
    }

    @Test func anotherClusterIDIsNotTheMock() {
        #expect(!KafkaCluster.Description(brokers: 3, clusterID: "lkc-abc123").isLibrdkafkaMock)
        #expect(!KafkaCluster.Description(brokers: 3, clusterID: nil).isLibrdkafkaMock)
    }
}
