import CRdKafka
import Synchronization

/// Wakes librdkafka 2.0.2's fetcher when it has stopped on a full queue and nothing else will wake it.
///
/// librdkafka stops fetching a partition when the consumer's queue holds `queued.max.messages.kbytes`
/// (or `queued.min.messages`), and decides again only when its broker thread next wakes up: a fetch
/// response, a request to send, or its one-second timer (librdkafka 2.2 added
/// `fetch.queue.backoff.ms` for this). An application that drains a full queue faster than that then
/// waits up to a second for records that are on the broker: pushgate's pipeline did, measured as a
/// throughput that fell to a quarter from one run to the next.
///
/// The poll thread tells this guard what it sees: before each poll, how long librdkafka's queue is; once
/// it has been near its limit, the next poll that finds the queue empty while the application has room
/// seeks every assigned partition that has records left on the broker to its position (the record
/// after the last one polled). librdkafka's queue is empty then, so the seek drops nothing; it wakes the
/// fetcher, which fetches from there at once.
///
/// Only the consumer's poll thread uses it; its state is behind a mutex that is never contended.
final class FetcherWakeUp: Sendable {
    private struct State {
        var queue: RDKafkaPointer?
        var averageRecordBytes = 512.0
        var wasNearFull = false
        var wakeUps = 0
    }

    private let client: RDKafkaPointer
    private var handle: OpaquePointer { client.raw }
    /// The queue length (records) from which the fetcher may have stopped.
    private let nearFullCount: Int
    /// The queue size (bytes) from which the fetcher may have stopped.
    private let nearFullBytes: Int
    private let state: Mutex<State>

    /// Whether the queue has been near its limit since the fetcher was last woken: the poll thread then
    /// waits only briefly for records, to notice an empty queue at once.
    var mayHaveStopped: Bool { state.withLock { $0.wasNearFull } }

    /// How many times the fetcher was woken (for tests and logs).
    var wakeUps: Int { state.withLock { $0.wakeUps } }

    /// Watches the consumer `handle`'s queue.
    init(handle: OpaquePointer) {
        self.client = RDKafkaPointer(handle)
        self.state = Mutex(State(queue: rd_kafka_queue_get_consumer(handle).map(RDKafkaPointer.init)))
        let maxKilobytes = Self.setting("queued.max.messages.kbytes", of: handle) ?? 65536
        let minMessages = Self.setting("queued.min.messages", of: handle) ?? 100_000
        // librdkafka checks its limits before each fetch; a queue at three quarters of either may be over
        // it by the time the next response is in.
        self.nearFullBytes = maxKilobytes * 1024 * 3 / 4
        self.nearFullCount = minMessages * 3 / 4
    }

    /// Releases librdkafka's queue handle; call it before the client is destroyed. Nothing is woken after.
    func close() {
        state.withLock { state in
            if let queue = state.queue { rd_kafka_queue_destroy(queue.raw) }
            state.queue = nil
        }
    }

    /// Before a poll: notes whether librdkafka's queue is near its limit.
    func measureQueue() {
        let (nearFullCount, nearFullBytes) = (self.nearFullCount, self.nearFullBytes)
        state.withLock { state in
            guard let queue = state.queue else { return }
            let length = rd_kafka_queue_length(queue.raw)
            if length >= nearFullCount || Double(length) * state.averageRecordBytes >= Double(nearFullBytes) {
                state.wasNearFull = true
            }
        }
    }

    /// After a poll that returned `records` records of `bytes` bytes in all: updates the average record
    /// size that turns the queue's length into bytes.
    func polled(records: Int, bytes: Int) {
        guard records > 0 else { return }
        state.withLock { $0.averageRecordBytes = $0.averageRecordBytes * 0.9 + Double(bytes) / Double(records) * 0.1 }
    }

    /// After a poll that returned nothing although the application had room: wakes the fetcher if the
    /// queue had been near its limit since the last wake-up.
    func pollFoundNothing() {
        let mayHaveStopped = state.withLock { state in
            guard state.wasNearFull, let queue = state.queue, rd_kafka_queue_length(queue.raw) == 0 else {
                return false
            }
            state.wasNearFull = false
            return true
        }
        guard mayHaveStopped else { return }
        let lagging = laggingPositions()
        guard !lagging.isEmpty else { return }
        let list = RDKafkaTopicPartitionList.make(lagging)
        defer { rd_kafka_topic_partition_list_destroy(list) }
        if let error = rd_kafka_seek_partitions(handle, list, Self.seekTimeoutMs) {
            rd_kafka_error_destroy(error)
            return
        }
        state.withLock { $0.wakeUps += 1 }
    }

    /// The assigned partitions whose position (next record to poll) is below the high watermark last
    /// seen from the broker, at their positions.
    private func laggingPositions() -> [KafkaTopicPartitionOffset] {
        var assigned: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
        guard rd_kafka_assignment(handle, &assigned) == RD_KAFKA_RESP_ERR_NO_ERROR, let assigned else { return [] }
        defer { rd_kafka_topic_partition_list_destroy(assigned) }
        guard assigned.pointee.cnt > 0, rd_kafka_position(handle, assigned) == RD_KAFKA_RESP_ERR_NO_ERROR else {
            return []
        }
        let positions = RDKafkaTopicPartitionList.offsets(of: assigned)
        return positions.filter { (entry: KafkaTopicPartitionOffset) -> Bool in
            guard entry.offset >= 0 else { return false }
            var low: Int64 = 0
            var high: Int64 = 0
            let code = rd_kafka_get_watermark_offsets(
                handle, entry.topicPartition.topic, entry.topicPartition.partition, &low, &high)
            return code == RD_KAFKA_RESP_ERR_NO_ERROR && high > entry.offset
        }
    }

    /// How long a seek may take to reach the fetcher.
    private static let seekTimeoutMs: Int32 = 1000

    /// An integer property of the client, as librdkafka has it.
    private static func setting(_ name: String, of handle: OpaquePointer) -> Int? {
        guard let configuration = rd_kafka_conf(handle) else { return nil }
        var buffer = [CChar](repeating: 0, count: 32)
        var size = buffer.count
        guard rd_kafka_conf_get(configuration, name, &buffer, &size) == RD_KAFKA_CONF_OK else { return nil }
        let digits = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return Int(String(decoding: digits, as: UTF8.self))
    }
}
