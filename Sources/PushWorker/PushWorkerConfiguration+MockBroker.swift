import PushgateKafka

extension PushWorkerConfiguration {
    /// The producer property that keeps one produce request in flight per broker connection.
    public static let oneProduceRequestInFlight = ["producer.max.in.flight.requests.per.connection": "1"]

    /// For librdkafka's mock cluster (`pushgate broker`, the embedded broker): keeps one produce request
    /// in flight, unless ``kafkaProperties`` set the producer's limit themselves; `true` when it did.
    ///
    /// Why: the mock does not check an idempotent producer's sequence numbers, which a Kafka broker does
    /// (a batch whose predecessors were not written is refused, `OUT_OF_ORDER_SEQUENCE_NUMBER`). With
    /// several requests in flight, a retriable error injected into one batch while the next is written
    /// makes librdkafka count the failed batch as written: records lost by the mock, not by pushgate,
    /// but lost all the same for whoever tests the worker there with injected faults. With one request
    /// in flight a failed batch is always retried before the next is sent. On the mock this costs little
    /// with a few dozen partitions per topic and more CPU with hundreds, as librdkafka visits every output
    /// partition per request (docs/embedded-broker.md). Against a real cluster nothing changes.
    public mutating func keepOneProduceRequestInFlight() -> Bool {
        let names = ["max.in.flight", "max.in.flight.requests.per.connection"]
        guard !kafkaProperties.keys.contains(where: { key in names.contains { key == $0 || key == "producer." + $0 } })
        else { return false }
        kafkaProperties.merge(Self.oneProduceRequestInFlight) { $1 }
        return true
    }
}
