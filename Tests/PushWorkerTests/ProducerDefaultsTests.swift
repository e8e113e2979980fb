import Kafka
import Testing

@testable import PushWorker

/// The worker's producer defaults, and `-X` winning over each of them.
@Suite struct ProducerDefaultsTests {
    @Test func theWorkerLingersTwentyMillisecondsAndHashesKeysLikeJava() {
        let configuration = PushWorkerConfiguration(bootstrapServers: "127.0.0.1:9092")
        let properties = configuration.producerConfiguration.properties
        #expect(properties["linger.ms"] == "20")
        #expect(properties["partitioner"] == "murmur2_random")
        #expect(configuration.consumerConfiguration.properties["linger.ms"] == nil, "a producer property only")
    }

    @Test func xPropertiesWin() {
        for given in [["linger.ms": "0"], ["producer.linger.ms": "0"]] {
            let configuration = PushWorkerConfiguration(bootstrapServers: "127.0.0.1:9092", kafkaProperties: given)
            #expect(configuration.producerConfiguration.properties["linger.ms"] == "0", "\(given)")
        }
    }
}
