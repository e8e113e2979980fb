import CRdKafka
import Synchronization

/// How a ``KafkaConsumer`` hands its records to an application that handles each one in place on the
/// consumer's poll thread and has other librdkafka events served there too (a producer's delivery
/// reports): one thread reads, handles and serves, as librdkafka's own examples do, with no hand-over
/// between threads.
///
/// Between polls the thread calls ``serve``; it takes records only while ``hasRoom`` says so (if the
/// application stays full, the assignment is paused as for ``KafkaConsumer/messages``); with nothing to
/// do it sleeps on ``signal``, which the consumer's queue and whatever else the application registered
/// with it wake.
public struct KafkaInlineReading: Sendable {
    /// Handles one record, in place, with its partition's assignment epoch. Called on the poll thread;
    /// may block briefly (to serve ``serve`` while a producer's queue is full).
    public var handle: @Sendable (_ record: KafkaRecordView, _ assignmentEpoch: UInt64) -> Void
    /// Called after each batch of records handled: for what is better done once per batch.
    public var afterRecords: @Sendable () -> Void
    /// Whether the application takes one more record now.
    public var hasRoom: @Sendable () -> Bool
    /// Serves the application's other events, waiting up to the given milliseconds for the first.
    public var serve: @Sendable (_ waitingUpToMs: Int32) -> Void
    /// Wakes the poll thread when a watched queue has events.
    public var signal: KafkaEventSignal

    /// Creates the hand-over; see the properties.
    public init(
        signal: KafkaEventSignal, hasRoom: @escaping @Sendable () -> Bool,
        serve: @escaping @Sendable (_ waitingUpToMs: Int32) -> Void,
        handle: @escaping @Sendable (_ record: KafkaRecordView, _ assignmentEpoch: UInt64) -> Void,
        afterRecords: @escaping @Sendable () -> Void
    ) {
        self.signal = signal
        self.hasRoom = hasRoom
        self.serve = serve
        self.handle = handle
        self.afterRecords = afterRecords
    }
}

extension KafkaConsumer {
    /// One turn of the poll thread with inline reading: serve the application's events; unless reading
    /// has stopped, take records while there is room (at most ``maxDrain``), each handled at once; with
    /// nothing done, sleep on the signal.
    static func pollInline(
        client: RDKafkaClient, inline: KafkaInlineReading, stopped: StopFlag, membership: ConsumerGroupMembership,
        topics: TopicNameCache, flow: ConsumerFlowControl, wakeUp: FetcherWakeUp, timeoutMs: Int32
    ) {
        inline.serve(0)
        guard !stopped.isStopped else {
            // Events still come (delivery reports, the group's): served, nothing read. A record this poll
            // returns is dropped unhandled: it was never registered, so it is not committed, and the
            // partition's next owner reads it.
            _ = rd_kafka_consumer_poll(client.handle, 0).map { rd_kafka_message_destroy($0) }
            inline.signal.wait(timeoutMs: timeoutMs)
            return
        }
        let hasRoom = inline.hasRoom()
        if hasRoom {
            flow.room(handle: client.handle)
        } else if !flow.noRoom(handle: client.handle) {
            // Full: the application's events make room (a producer's delivery reports).
            inline.serve(min(timeoutMs, fetcherCheckMs))
            return
        }
        wakeUp.measureQueue()
        var lastTopic: (handle: OpaquePointer?, name: String)?
        var handled = 0
        var polled = 0
        var bytes = 0
        // Without room (paused), one record still: one fetched before the pause took effect.
        polling: while polled < maxDrain, polled == 0 || inline.hasRoom(),
            let message = rd_kafka_consumer_poll(client.handle, 0)
        {
            polled += 1
            defer { rd_kafka_message_destroy(message) }
            let topic: String
            switch PolledMessage(message, client: client, topics: topics, lastTopic: &lastTopic) {
            case .record(let name): topic = name
            case .skip: continue
            case .fatal: break polling
            }
            bytes += message.pointee.len + message.pointee.key_len
            let partition = KafkaTopicPartition(topic: topic, partition: message.pointee.partition)
            inline.handle(KafkaRecordView(message, topic: topic), membership.epoch(of: partition))
            handled += 1
        }
        if handled > 0 {
            inline.afterRecords()
            wakeUp.polled(records: handled, bytes: bytes)
        } else if polled == 0 {
            if hasRoom && !flow.isPaused { wakeUp.pollFoundNothing() }
            inline.signal.wait(timeoutMs: hasRoom && wakeUp.mayHaveStopped ? min(timeoutMs, fetcherCheckMs) : timeoutMs)
        }
    }
}

/// A flag set once, read by one thread: whether an inline reader stopped taking records.
final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)

    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    func stop() { stopped.store(true, ordering: .relaxed) }
}
