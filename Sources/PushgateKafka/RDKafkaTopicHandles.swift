import CRdKafka
import Synchronization

/// A producer's librdkafka topic objects (`rd_kafka_topic_t`), made on a topic's first record and kept
/// until the producer is destroyed.
///
/// Producing by object (`RD_KAFKA_VTYPE_RKT`) rather than by name (`RD_KAFKA_VTYPE_TOPIC`) spares every
/// record librdkafka's name lookup, which takes the client-wide write lock that its broker threads take
/// for reading, compares names and counts a reference up and down again (`rd_kafka_topic_new0` in
/// librdkafka 2.0.2).
///
/// A producer writes to few topics (the worker to at most six), so they are found by comparing names in
/// a short list; names of one configuration share their storage, which makes most comparisons a pointer
/// check. Past ``maxKept`` topics, records of further topics are produced by name.
///
/// The list is only read or changed under its mutex, and the objects themselves are thread-safe
/// librdkafka handles. A record handed over while the producer is being shut down may still meet a
/// destroyed object, as it may meet the destroyed client: ``KafkaProducer`` refuses records once
/// shutdown has begun, and the worker produces none after it.
@usableFromInline
final class RDKafkaTopicHandles: Sendable {
    /// The most topic objects kept; more would make the search cost more than librdkafka's lookup.
    static let maxKept = 32

    private struct State {
        var entries: [(name: String, handle: RDKafkaPointer)] = []
        var destroyed = false
    }

    private let lock = Mutex(State())

    /// The object of `topic` in `client`, made on first use; `nil` when librdkafka refuses the name (the
    /// record is then produced by name, and librdkafka reports why), too many are kept already, or the
    /// objects have been given back (``destroyAll()``).
    @usableFromInline
    func handle(for topic: String, in client: OpaquePointer) -> OpaquePointer? {
        let client = RDKafkaPointer(client)
        // Names of another length are passed over without comparing their bytes (a record's topic is
        // looked up for every record written, among every topic written so far).
        let length = topic.utf8.count
        let found: RDKafkaPointer? = lock.withLock { state in
            for index in state.entries.indices
            where state.entries[index].name.utf8.count == length && state.entries[index].name == topic {
                return state.entries[index].handle
            }
            guard !state.destroyed, state.entries.count < Self.maxKept,
                let handle = rd_kafka_topic_new(client.raw, topic, nil)
            else { return nil }
            state.entries.append((topic, RDKafkaPointer(handle)))
            return RDKafkaPointer(handle)
        }
        return found?.raw
    }

    /// Gives every object back to librdkafka; called once, before the client is destroyed. No object is
    /// made afterwards.
    func destroyAll() {
        lock.withLock { state in
            for entry in state.entries { rd_kafka_topic_destroy(entry.handle.raw) }
            state.entries.removeAll()
            state.destroyed = true
        }
    }
}
