import CRdKafka
import Logging
import Synchronization

/// A consumer group member that reads records and commits only the offsets it is told to.
///
/// A dedicated poll thread calls `rd_kafka_consumer_poll` and serves librdkafka's callbacks (rebalance,
/// logs, statistics, errors); records reach async code through ``messages``. When the application falls
/// behind by ``KafkaConsumerConfiguration/bufferedMessages`` records, the poll thread waits. Records may
/// instead be handled in place on the poll thread: by a record handler, or by an inline reader
/// (``KafkaInlineReading``) that also serves a producer's delivery reports there.
public final class KafkaConsumer: Sendable {
    private let client: RDKafkaClient
    private let pollThread: PollThread
    private let buffer: ConsumerMessageBuffer
    private let membership: ConsumerGroupMembership
    private let fetcherWakeUp: FetcherWakeUp
    private let closed = Mutex(false)
    /// Whether an inline reader still takes records (``stopReading()``).
    private let readingStopped = StopFlag()
    /// The consumer's queue as watched by an inline reader's signal, and the signal.
    private let signalled: (queue: RDKafkaPointer, signal: KafkaEventSignal)?

    /// The records read, to be iterated by one task.
    public let messages: KafkaConsumerMessages

    /// Creates a consumer, subscribes it to the configured topics and starts its poll thread.
    /// - Parameters:
    ///   - rebalanceListener: told of assignments and revocations, on the poll thread.
    ///   - statisticsHandler: receives librdkafka's statistics JSON, on the poll thread.
    ///   - errorHandler: called, on a librdkafka thread, for every error librdkafka reports (fatal or
    ///     not, including consume errors), after it is logged; for metrics.
    ///   - recordHandler: when given, every record is handed to it in place, on the poll thread, instead
    ///     of to ``messages`` (which then only ends, or throws a fatal error): for reading a topic whole
    ///     at librdkafka's pace, keeping only part of each record. Keep it short and never block.
    ///   - inlineReading: when given (and no `recordHandler`), records are handled in place on the poll
    ///     thread as it says, with the application's other events served between them; ``messages``
    ///     then only ends, or throws a fatal error.
    public init(
        configuration: KafkaConsumerConfiguration, logger: Logger,
        rebalanceListener: (any KafkaRebalanceListener)? = nil,
        statisticsHandler: (@Sendable (String) -> Void)? = nil,
        errorHandler: (@Sendable (KafkaError) -> Void)? = nil,
        recordHandler: (@Sendable (KafkaRecordView) -> Void)? = nil,
        inlineReading: KafkaInlineReading? = nil
    ) throws(KafkaError) {
        let buffer = ConsumerMessageBuffer(capacity: configuration.bufferedMessages)
        let membership = ConsumerGroupMembership(
            listener: rebalanceListener, commitTimeoutMs: configuration.commitTimeoutMs, logger: logger)
        let callbacks = RDKafkaCallbacks(
            logger: logger, statisticsHandler: statisticsHandler,
            fatalErrorHandler: { buffer.finish(error: $0) },
            rebalanceHandler: { membership.rebalance(handle: $0, event: $1, list: $2) },
            errorHandler: errorHandler)
        let client = try RDKafkaClient.make(
            kind: .consumer, properties: configuration.librdkafkaProperties, callbacks: callbacks
        ) { rdConfiguration in
            rd_kafka_conf_set_rebalance_cb(rdConfiguration) { handle, event, list, _ in
                guard let handle, let list, let callbacks = RDKafkaCallbacks.from(handle) else { return }
                callbacks.rebalanceHandler?(handle, event, list)
            }
        }
        // Serve logs, statistics and errors from rd_kafka_consumer_poll, on the poll thread.
        _ = rd_kafka_poll_set_consumer(client.handle)
        var code = RD_KAFKA_RESP_ERR_NO_ERROR
        if !configuration.topics.isEmpty {
            let topics = RDKafkaTopicPartitionList.make(topics: configuration.topics)
            code = rd_kafka_subscribe(client.handle, topics)
            rd_kafka_topic_partition_list_destroy(topics)
        }
        if code != RD_KAFKA_RESP_ERR_NO_ERROR {
            client.destroy()
            throw KafkaError(
                code, message: "cannot subscribe to \(configuration.topics): \(String(cString: rd_kafka_err2str(code)))"
            )
        }
        self.client = client
        self.buffer = buffer
        self.membership = membership
        self.messages = KafkaConsumerMessages(buffer: buffer)
        let timeout = configuration.pollTimeoutMs
        let topics = TopicNameCache()
        let maxPollInterval = configuration.librdkafkaProperties.last { $0.0 == "max.poll.interval.ms" }.flatMap {
            Int($0.1)
        }
        let flow = ConsumerFlowControl(maxPollIntervalMs: maxPollInterval ?? 300_000, logger: logger)
        let wakeUp = FetcherWakeUp(handle: client.handle)
        self.fetcherWakeUp = wakeUp
        if let inlineReading, recordHandler == nil, let queue = rd_kafka_queue_get_consumer(client.handle) {
            inlineReading.signal.watch(queue)
            self.signalled = (RDKafkaPointer(queue), inlineReading.signal)
            let readingStopped = self.readingStopped
            self.pollThread = PollThread(
                name: "kafka-consumer-poll",
                poll: {
                    KafkaConsumer.pollInline(
                        client: client, inline: inlineReading, stopped: readingStopped, membership: membership,
                        topics: topics, flow: flow, wakeUp: wakeUp, timeoutMs: timeout)
                }, interruptPoll: { inlineReading.signal.wake() })
        } else {
            self.signalled = nil
            self.pollThread = PollThread(name: "kafka-consumer-poll") {
                KafkaConsumer.pollOnce(
                    client: client, buffer: buffer, membership: membership, topics: topics, flow: flow, wakeUp: wakeUp,
                    timeoutMs: timeout, recordHandler: recordHandler)
            }
        }
        pollThread.start()
    }

    /// An inline reader takes no more records from now on (graceful shutdown); its poll thread goes on
    /// serving events, the group's and the application's.
    public func stopReading() {
        readingStopped.stop()
        signalled?.signal.wake()
    }

    /// The fatal error librdkafka raised, if any.
    public var fatalError: KafkaError? { client.fatalError }

    /// The librdkafka client, for extensions whose calls run on the poll thread through ``run(_:)``.
    var rdClient: RDKafkaClient { client }

    /// Runs `body` on the poll thread (for blocking librdkafka calls) and returns its result.
    func run<Result: Sendable>(_ body: @escaping @Sendable () throws(KafkaError) -> Result) async throws(KafkaError)
        -> Result
    {
        try await pollThread.run(body)
    }

    /// Reads `offsets` directly (each partition from its offset), without joining the group: for a
    /// consumer configured with no topics. Records carry assignment epoch 0.
    public func assign(_ offsets: [KafkaTopicPartitionOffset]) async throws(KafkaError) {
        let client = self.client
        try await pollThread.run { () throws(KafkaError) in
            let list = RDKafkaTopicPartitionList.make(offsets)
            defer { rd_kafka_topic_partition_list_destroy(list) }
            let code = rd_kafka_assign(client.handle, list)
            if code != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(code) }
        }
    }

    /// Commits `offsets` (each the next offset to read) on the poll thread, waiting for the coordinator's
    /// answer at most ``KafkaConsumerConfiguration/commitTimeoutMs``. Partitions this consumer no longer
    /// owns are skipped, so a late commit never rewinds another member's work.
    /// - Parameter timeout: a shorter wait for this commit's answer than the configured one.
    public func commit(_ offsets: [KafkaTopicPartitionOffset], timeout: Duration? = nil) async throws(KafkaError) {
        guard !offsets.isEmpty else { return }
        let client = self.client
        let membership = self.membership
        let timeoutMs = timeout.map { Int32(min(max(($0 / .milliseconds(1)).rounded(.up), 0), Double(Int32.max))) }
        try await pollThread.run { () throws(KafkaError) in
            try membership.commit(offsets, handle: client.handle, timeoutMs: timeoutMs)
        }
    }

    /// How many times the poll thread woke librdkafka's fetcher after it stopped on a full queue
    /// (``FetcherWakeUp``).
    var fetcherWakeUps: Int {
        get async throws(KafkaError) {
            let wakeUp = fetcherWakeUp
            return try await pollThread.run { wakeUp.wakeUps }
        }
    }

    /// The partitions currently assigned to this consumer.
    public func assignment() async throws(KafkaError) -> [KafkaTopicPartition] {
        let membership = self.membership
        return try await pollThread.run { membership.assignedPartitions }
    }

    /// Leaves the group and releases librdkafka's resources: `rd_kafka_consumer_close` (which revokes
    /// the assignment through the rebalance listener, committing what it returns), then destroy.
    /// ``messages`` ends. Calling it again does nothing.
    ///
    /// librdkafka 2.0.2 has no deadline for `rd_kafka_consumer_close`, which may wait for a coordinator
    /// that is gone. With `timeout`, this returns `false` once it has passed: ``messages`` has ended, and
    /// the poll thread goes on closing and destroying the handle by itself (nothing else uses the handle
    /// after this call: every later call of this consumer fails as after a close), or is ended with the
    /// process, which is what a caller that gives up should do next.
    /// - Returns: `true` when the consumer closed, `false` when `timeout` passed first.
    @discardableResult
    public func close(timeout: Duration? = nil) async -> Bool {
        let first = closed.withLock { isClosed in
            defer { isClosed = true }
            return !isClosed
        }
        guard first else { return true }
        let client = self.client
        let buffer = self.buffer
        let wakeUp = self.fetcherWakeUp
        let signalled = self.signalled
        let pollThread = self.pollThread
        let stop: @Sendable () async -> Void = {
            await pollThread.stop {
                wakeUp.close()
                if let signalled {
                    signalled.signal.unwatch(signalled.queue.raw)
                    rd_kafka_queue_destroy(signalled.queue.raw)
                }
                let code = rd_kafka_consumer_close(client.handle)
                if code != RD_KAFKA_RESP_ERR_NO_ERROR {
                    client.callbacks.logger.warning("consumer close: \(KafkaError(code))")
                }
                buffer.finish()
                client.destroy()
            }
        }
        guard let timeout else {
            await stop()
            return true
        }
        let closedInTime = await Deadline.race(timeout, stop)
        if !closedInTime {
            client.callbacks.logger.warning("consumer close: no end after \(timeout); leaving it unfinished")
            buffer.finish()
        }
        return closedInTime
    }

    /// Most records one wake of the poll thread takes from librdkafka before handing them over.
    static let maxDrain = 512

    /// Waits for room, polls once with the timeout, then, without waiting, as many more records as fit
    /// (at most ``maxDrain``), and hands them over together: one lock and one wake-up per batch. Each
    /// record gets the assignment epoch of its partition at the moment it was polled (a rebalance is
    /// served inside a poll).
    ///
    /// While the application has held all the records it may for a while (``ConsumerFlowControl``), the
    /// assignment is paused and the poll goes on (group membership, rebalances, callbacks); a record
    /// polled meanwhile (fetched before the pause took effect) is still handed over, beyond the capacity.
    /// The assignment resumes once there is room.
    private static func pollOnce(
        client: RDKafkaClient, buffer: ConsumerMessageBuffer, membership: ConsumerGroupMembership,
        topics: TopicNameCache, flow: ConsumerFlowControl, wakeUp: FetcherWakeUp, timeoutMs: Int32,
        recordHandler: (@Sendable (KafkaRecordView) -> Void)?
    ) {
        let hasRoom = buffer.waitForRoom(timeout: Double(timeoutMs) / 1000)
        if hasRoom {
            flow.room(handle: client.handle)
        } else if !flow.noRoom(handle: client.handle) {
            return
        }
        let room = hasRoom ? min(max(buffer.room, 1), maxDrain) : 1
        var batch: [KafkaConsumerMessage] = []
        var lastTopic: (handle: OpaquePointer?, name: String)?
        var bytes = 0
        var handled = 0
        // librdkafka's queue is measured before this poll drains it: a small queue (a few hundred records)
        // is emptied by one batch, so measured after, it would never look full.
        wakeUp.measureQueue()
        // After a full queue, while the application has room, a short first wait: an empty queue may be
        // a fetcher that has stopped (FetcherWakeUp), and the thread then comes back at once to wake it.
        var timeout = hasRoom && wakeUp.mayHaveStopped ? min(timeoutMs, fetcherCheckMs) : timeoutMs
        let most = recordHandler == nil ? room : maxDrain
        if recordHandler == nil { batch.reserveCapacity(most) }
        polling: while batch.count + handled < most, let message = rd_kafka_consumer_poll(client.handle, timeout) {
            timeout = 0
            defer { rd_kafka_message_destroy(message) }
            let topic: String
            switch PolledMessage(message, client: client, topics: topics, lastTopic: &lastTopic) {
            case .record(let name): topic = name
            case .skip: continue
            case .fatal: break polling
            }
            bytes += message.pointee.len + message.pointee.key_len
            if let recordHandler {
                recordHandler(KafkaRecordView(message, topic: topic))
                handled += 1
                continue
            }
            let partition = KafkaTopicPartition(topic: topic, partition: message.pointee.partition)
            batch.append(KafkaConsumerMessage(message, topic: topic, assignmentEpoch: membership.epoch(of: partition)))
        }
        if batch.isEmpty && handled == 0 {
            if hasRoom && !flow.isPaused { wakeUp.pollFoundNothing() }
        } else {
            wakeUp.polled(records: batch.count + handled, bytes: bytes)
        }
        buffer.push(batch)
    }

    /// How long the poll thread waits for a record before it checks for a stopped fetcher, in ms.
    static let fetcherCheckMs: Int32 = 10
}

/// The names of the topics a poll thread reads, by librdkafka topic handle, so that a record's topic
/// is not a new `String` each time. Only the consumer's poll thread uses it; the mutex is never
/// contended.
final class TopicNameCache: Sendable {
    private let names = Mutex<[RDKafkaPointer: String]>([:])

    /// The name of `topic` (empty for none).
    func name(of topic: OpaquePointer?) -> String {
        guard let topic else { return "" }
        let topicPointer = RDKafkaPointer(topic)
        return names.withLock { names in
            if let name = names[topicPointer] { return name }
            let name = String(cString: rd_kafka_topic_name(topicPointer.raw))
            names[topicPointer] = name
            return name
        }
    }
}
