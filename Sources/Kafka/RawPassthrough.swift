import CRdKafka
import Synchronization
import Foundation
import Logging

/// The ceiling of `pushgate bench pipeline`: librdkafka consume → produce with nothing in between.
///
/// One dedicated thread polls a group consumer and hands every record (key, value and headers
/// unchanged) to a producer with `RD_KAFKA_MSG_F_COPY`: no commit discipline (librdkafka's automatic
/// commit of what was read), no in-flight bound, no delivery reports, no ordering beyond librdkafka's
/// own. It is what the transport allows on the machine, not something to run in production.
public final class RawPassthrough: Sendable {
    private let consumer: RDKafkaClient
    private let producer: RDKafkaClient
    private let outputTopic: String
    private let stopRequested = Mutex(false)
    private let exited = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let done = Mutex(false)

    /// Creates the two clients and subscribes; nothing is read before ``start()``.
    /// - Parameters:
    ///   - properties: librdkafka properties given to both clients after the defaults.
    ///   - commitIntervalMs: `auto.commit.interval.ms` of the consumer.
    public init(
        bootstrapServers: String, groupId: String, inputTopic: String, outputTopic: String,
        properties: [String: String] = [:], commitIntervalMs: Int = 500, logger: Logger
    ) throws(KafkaError) {
        let extra = properties.sorted { $0.key < $1.key }
        let consumerProperties = [
            ("bootstrap.servers", bootstrapServers), ("group.id", groupId), ("auto.offset.reset", "earliest"),
            ("enable.auto.commit", "true"), ("auto.commit.interval.ms", String(commitIntervalMs)),
        ] + extra
        let producerProperties = [("bootstrap.servers", bootstrapServers)] + extra
        let consumer = try RDKafkaClient.make(
            kind: .consumer, properties: consumerProperties,
            callbacks: RDKafkaCallbacks(logger: logger, statisticsHandler: nil))
        let producer: RDKafkaClient
        do {
            producer = try RDKafkaClient.make(
                kind: .producer, properties: producerProperties,
                callbacks: RDKafkaCallbacks(logger: logger, statisticsHandler: nil))
        } catch {
            consumer.destroy()
            throw error
        }
        _ = rd_kafka_poll_set_consumer(consumer.handle)
        let topics = RDKafkaTopicPartitionList.make(topics: [inputTopic])
        let code = rd_kafka_subscribe(consumer.handle, topics)
        rd_kafka_topic_partition_list_destroy(topics)
        if code != RD_KAFKA_RESP_ERR_NO_ERROR {
            consumer.destroy()
            producer.destroy()
            throw KafkaError(code, message: "cannot subscribe to \(inputTopic)")
        }
        self.consumer = consumer
        self.producer = producer
        self.outputTopic = outputTopic
    }

    /// Starts the consume → produce thread.
    public func start() {
        let thread = Thread { [self] in loop() }
        thread.name = "raw-passthrough"
        thread.start()
    }

    /// Stops reading, flushes what was produced (up to 30 s), leaves the group and destroys both
    /// clients; returns once done.
    public func stop() async {
        stopRequested.withLock { $0 = true }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = done.withLock { isDone in
                if !isDone { exited.withLock { $0 = continuation } }
                return isDone
            }
            if finished { continuation.resume() }
        }
    }

    private func loop() {
        let topic = rd_kafka_topic_new(producer.handle, outputTopic, nil)
        while !stopRequested.withLock({ $0 }) {
            guard let message = rd_kafka_consumer_poll(consumer.handle, 100) else {
                rd_kafka_poll(producer.handle, 0)
                continue
            }
            if message.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR { forward(message, topic: topic) }
            rd_kafka_message_destroy(message)
        }
        _ = rd_kafka_flush(producer.handle, 30_000)
        if let topic { rd_kafka_topic_destroy(topic) }
        _ = rd_kafka_consumer_close(consumer.handle)
        consumer.destroy()
        producer.destroy()
        let waiter = done.withLock { isDone in
            isDone = true
            return exited.withLock { $0 }
        }
        waiter?.resume()
    }

    /// Produces one consumed record to the output topic, serving the producer while its queue is full.
    private func forward(_ message: UnsafeMutablePointer<rd_kafka_message_t>, topic: OpaquePointer?) {
        var headers: OpaquePointer?
        _ = rd_kafka_message_detach_headers(message, &headers)
        let raw = message.pointee
        while true {
            // rd_kafka_produceva owns the header list only when it succeeds: each attempt gets a copy,
            // destroyed here when the attempt fails.
            var values = [rd_kafka_vu_t](repeating: rd_kafka_vu_t(), count: 5)
            values[0].vtype = RD_KAFKA_VTYPE_RKT
            values[0].u.rkt = topic
            values[1].vtype = RD_KAFKA_VTYPE_MSGFLAGS
            values[1].u.i = RD_KAFKA_MSG_F_COPY
            values[2].vtype = RD_KAFKA_VTYPE_KEY
            values[2].u.mem.ptr = raw.key
            values[2].u.mem.size = raw.key_len
            values[3].vtype = RD_KAFKA_VTYPE_VALUE
            values[3].u.mem.ptr = raw.payload
            values[3].u.mem.size = raw.len
            values[4].vtype = RD_KAFKA_VTYPE_HEADERS
            values[4].u.headers = headers.flatMap { rd_kafka_headers_copy($0) }
            let error = values.withUnsafeBufferPointer { rd_kafka_produceva(producer.handle, $0.baseAddress, $0.count) }
            guard let error else { break }
            if let copy = values[4].u.headers { rd_kafka_headers_destroy(copy) }
            let code = rd_kafka_error_code(error)
            rd_kafka_error_destroy(error)
            guard code == RD_KAFKA_RESP_ERR__QUEUE_FULL else { break }
            rd_kafka_poll(producer.handle, 10)
        }
        if let headers { rd_kafka_headers_destroy(headers) }
        rd_kafka_poll(producer.handle, 0)
    }
}
