import Logging
import PushgateKafka

/// Reads a bounded range of a topic for a replay: every partition from a start (an offset, or the first
/// record at or after a time) up to the topic's end when the replay starts (or an end offset), without
/// joining a consumer group or committing anything.
public struct TopicReplaySource: Sendable {
    /// The topic to read.
    public var topic: String
    /// Consumer settings: bootstrap servers and further librdkafka properties.
    public var consumer: KafkaConsumerConfiguration
    /// First offset read in each partition (inclusive). Default: the partition's first.
    public var fromOffset: Int64?
    /// Offset at which each partition stops (exclusive). Default: the partition's end at start.
    public var toOffset: Int64?
    /// Read from the first record with this timestamp (ms) or later; earlier records are skipped.
    public var sinceMs: Int64?
    /// Skip records with this timestamp (ms) or later.
    public var untilMs: Int64?

    /// Creates a source.
    public init(
        topic: String, consumer: KafkaConsumerConfiguration, fromOffset: Int64? = nil, toOffset: Int64? = nil,
        sinceMs: Int64? = nil, untilMs: Int64? = nil
    ) {
        self.topic = topic
        self.consumer = consumer
        self.fromOffset = fromOffset
        self.toOffset = toOffset
        self.sinceMs = sinceMs
        self.untilMs = untilMs
    }

    /// Reads the range, handing each record to `replayer` in partition order.
    public func run(into replayer: Replayer, logger: Logger) async throws {
        var configuration = consumer
        configuration.topics = []
        let reader = try KafkaConsumer(configuration: configuration, logger: logger)
        do {
            try await read(with: reader, into: replayer)
        } catch {
            await reader.close()
            throw error
        }
        await reader.close()
    }

    private func read(with reader: KafkaConsumer, into replayer: Replayer) async throws {
        let marks = try await reader.watermarks(topic: topic)
        var starts: [Int32: Int64?]?
        if let sinceMs { starts = try await reader.offsets(topic: topic, atOrAfter: sinceMs) }
        var ranges: [Int32: Range<Int64>] = [:]
        for (partition, mark) in marks {
            var start = max(mark.low, fromOffset ?? mark.low)
            // No offset for the time means no record at or after it, or a broker that cannot tell
            // (librdkafka's mock cluster): read from the start and filter by timestamp below.
            if let starts, let found = starts[partition] ?? nil { start = max(start, found) }
            let end = min(mark.high, toOffset ?? mark.high)
            if start < end { ranges[partition] = start..<end }
        }
        replayer.setTotal(ranges.values.reduce(0) { $0 + $1.count })
        guard !ranges.isEmpty else { return }
        try await reader.assign(
            ranges.map { KafkaTopicPartitionOffset(topic: topic, partition: $0.key, offset: $0.value.lowerBound) })
        var pending = Set(ranges.keys)
        for try await message in reader.messages {
            guard let range = ranges[message.partition] else { continue }
            // A record at or past the last wanted offset ends the partition: the last offset itself may
            // never arrive (a transaction marker, compaction).
            if message.offset + 1 >= range.upperBound { pending.remove(message.partition) }
            guard range.contains(message.offset) else {
                if pending.isEmpty { break }
                continue
            }
            if let timestamp = message.timestampMs,
                (untilMs.map { timestamp >= $0 } ?? false) || (sinceMs.map { timestamp < $0 } ?? false)
            {
                replayer.countSkipped(1)
            } else {
                try await replayer.replay(
                    ReplayRecord(
                        key: message.key, value: message.value, headers: message.headers,
                        valueIsNull: message.valueIsNull))
            }
            if pending.isEmpty { break }
        }
    }
}
