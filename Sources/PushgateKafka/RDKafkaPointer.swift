/// A pointer to a librdkafka object (`rd_kafka_t`, `rd_kafka_topic_t`, `rd_kafka_queue_t`,
/// `rd_kafka_mock_cluster_t`) that may cross threads: what lets the types holding one be `Sendable`,
/// with their own state in `Mutex`es.
///
/// `@unchecked Sendable` because `OpaquePointer` is not `Sendable`; safe because the pointer itself is
/// a `let`, and what it reaches is only ever changed by librdkafka's functions on these objects, which
/// are thread-safe (its documentation says so of each one pushgate calls): Swift reads and writes no
/// field of them. What a pointer cannot tell is whether its object is still alive: each owner destroys
/// its object once, after every user is done, and says how.
struct RDKafkaPointer: @unchecked Sendable, Hashable {
    let raw: OpaquePointer

    init(_ raw: OpaquePointer) { self.raw = raw }
}
