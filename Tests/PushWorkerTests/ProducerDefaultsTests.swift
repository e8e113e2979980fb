import PushgateKafka
import Testing

@testable import PushWorker

/// The worker's producer defaults, and `-X` winning over them.
@Suite struct ProducerDefaultsTests {
    /// Batches wait up to 20 ms to fill (librdkafka's default is 5 ms).
    @Test func theWorkerHashesKeysLikeJavaAndLingers20Ms() {
        let configuration = PushWorkerConfiguration(bootstrapServers: "127.0.0.1:9092")
        let properties = configuration.producerConfiguration.properties
        #expect(properties["partitioner"] == "murmur2_random")
        #expect(properties["linger.ms"] == "20")
        #expect(Int(properties["message.max.bytes"] ?? "") ?? 0 >= 1_048_576 + 256 * 1024)
    }

    @Test func xPropertiesWin() {
        for given in [
            ["linger.ms": "35", "partitioner": "consistent"],
            ["producer.linger.ms": "35", "producer.partitioner": "consistent"],
        ] {
            let configuration = PushWorkerConfiguration(bootstrapServers: "127.0.0.1:9092", kafkaProperties: given)
            #expect(configuration.producerConfiguration.properties["linger.ms"] == "35", "\(given)")
            #expect(configuration.producerConfiguration.properties["partitioner"] == "consistent", "\(given)")
            #expect(configuration.consumerConfiguration.properties["linger.ms"] == nil, "a producer property only")
        }
    }
}
