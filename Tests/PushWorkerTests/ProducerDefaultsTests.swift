import PushgateKafka
import Testing

@testable import PushWorker

/// The worker's producer defaults, and `-X` winning over them.
@Suite struct ProducerDefaultsTests {
    /// `linger.ms` is left to librdkafka (5 ms): a longer default would cap the worker at
    /// `--max-in-flight` records per linger.
    @Test func theWorkerHashesKeysLikeJavaAndLeavesLingerToLibrdkafka() {
        let configuration = PushWorkerConfiguration(bootstrapServers: "127.0.0.1:9092")
        let properties = configuration.producerConfiguration.properties
        #expect(properties["partitioner"] == "murmur2_random")
        #expect(properties["linger.ms"] == nil)
        #expect(Int(properties["message.max.bytes"] ?? "") ?? 0 >= 1_048_576 + 256 * 1024)
    }

    @Test func xPropertiesWin() {
        for given in [
            ["linger.ms": "20", "partitioner": "consistent"],
            ["producer.linger.ms": "20", "producer.partitioner": "consistent"],
        ] {
            let configuration = PushWorkerConfiguration(bootstrapServers: "127.0.0.1:9092", kafkaProperties: given)
            #expect(configuration.producerConfiguration.properties["linger.ms"] == "20", "\(given)")
            #expect(configuration.producerConfiguration.properties["partitioner"] == "consistent", "\(given)")
            #expect(configuration.consumerConfiguration.properties["linger.ms"] == nil, "a producer property only")
        }
    }
}
