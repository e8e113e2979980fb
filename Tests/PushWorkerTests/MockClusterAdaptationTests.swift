import PushWorker
import PushgateKafka
import Testing

/// On librdkafka's mock cluster the worker keeps one produce request in flight (the mock does not check
/// idempotent sequence numbers), unless the operator set the producer's limit.
@Suite struct MockClusterAdaptationTests {
    @Test func oneProduceRequestInFlightIsAddedAndGoesToTheProducerOnly() {
        var configuration = PushWorkerConfiguration(
            bootstrapServers: "127.0.0.1:9092", kafkaProperties: ["linger.ms": "7"])
        let adapted = configuration.keepOneProduceRequestInFlight()
        #expect(adapted)
        #expect(
            KafkaPropertyScope.properties(configuration.kafkaProperties, for: .producer)[
                "max.in.flight.requests.per.connection"] == "1")
        #expect(
            KafkaPropertyScope.properties(configuration.kafkaProperties, for: .consumer)[
                "max.in.flight.requests.per.connection"] == nil)
        #expect(configuration.kafkaProperties["linger.ms"] == "7")
    }

    @Test func theOperatorsOwnLimitIsKept() {
        for given in [
            ["max.in.flight": "3"], ["max.in.flight.requests.per.connection": "2"],
            ["producer.max.in.flight": "4"], ["producer.max.in.flight.requests.per.connection": "5"],
        ] {
            var configuration = PushWorkerConfiguration(bootstrapServers: "127.0.0.1:9092", kafkaProperties: given)
            let adapted = configuration.keepOneProduceRequestInFlight()
            #expect(!adapted, "\(given)")
            #expect(configuration.kafkaProperties == given)
        }
    }
}
