import Foundation
import Logging
import PushgateKafka
import Synchronization

/// What the console shows live, from the cluster alone (no worker metrics): the end offsets of the
/// input, output and dead-letter topics and their rates, and the worker group's lag per partition of
/// the input topic (its committed offset against the partition's end).
public final class ClusterWatch: Sendable {
    /// One topic's end and rate.
    public struct TopicRate: Sendable, Equatable {
        /// The topic.
        public var topic: String
        /// What it holds (`input`, a format, `dead-letters`).
        public var role: String
        /// The sum of its partitions' end offsets (high watermarks).
        public var end: Int64
        /// Records written per second over the last interval.
        public var perSecond: Double
    }

    /// The group's position in one input partition.
    public struct PartitionLag: Sendable, Equatable {
        /// The partition.
        public var partition: Int32
        /// The committed offset (the next to read); `nil` when the group has committed none.
        public var committed: Int64?
        /// The partition's end.
        public var end: Int64
        /// Records not yet committed: the end minus the committed offset (or minus the first offset
        /// still stored, without a commit).
        public var lag: Int64
    }

    /// One look at the cluster.
    public struct Status: Sendable {
        /// Whether the last look succeeded.
        public var connected: Bool
        /// Why it did not.
        public var error: String?
        /// When the cluster last answered (ms since the epoch).
        public var lastSeenMs: Int64?
        /// Each topic's end and rate.
        public var topics: [TopicRate]
        /// The group's lag per input partition.
        public var lag: [PartitionLag]
    }

    private let topics: [(topic: String, role: String)]
    private let inputTopic: String
    private let consumer: KafkaConsumerConfiguration
    private let interval: Duration
    private let logger: Logger
    private let state: Mutex<Status>
    private let previous = Mutex<(ends: [String: Int64], at: ContinuousClock.Instant)?>(nil)

    /// Creates a watch of `topics` (each with its role) and of the group `consumer.groupId` on
    /// `inputTopic`, looking every `interval`.
    public init(
        topics: [(topic: String, role: String)], inputTopic: String, consumer: KafkaConsumerConfiguration,
        interval: Duration = .seconds(2), logger: Logger
    ) {
        self.topics = topics
        self.inputTopic = inputTopic
        self.consumer = consumer
        self.interval = interval
        self.logger = logger
        state = Mutex(Status(connected: false, error: "not yet connected", lastSeenMs: nil, topics: [], lag: []))
    }

    /// The last look.
    public var status: Status { state.withLock { $0 } }

    /// Looks every interval until the task is cancelled.
    public func run() async {
        var configuration = consumer
        configuration.topics = []
        var made: KafkaConsumer?
        while made == nil && !Task.isCancelled {
            do {
                made = try KafkaConsumer(configuration: configuration, logger: logger)
            } catch {
                state.withLock { $0.error = "\(error)" }
                try? await Task.sleep(for: interval)  // a retry delay, not a wait for a condition

            }
        }
        guard let reader = made else { return }
        var wasConnected = true
        while !Task.isCancelled {
            do {
                try await look(reader)
                if !wasConnected { logger.notice("console: the cluster answers again") }
                wasConnected = true
            } catch {
                state.withLock {
                    $0.connected = false
                    $0.error = "\(error)"
                }
                if wasConnected { logger.warning("console: the cluster does not answer: \(error)") }
                wasConnected = false
            }
            // Genuinely periodic: the watch looks again every refresh interval (nothing signals a change of lag).
            try? await Task.sleep(for: interval)
        }
        await reader.close()
    }

    private func look(_ reader: KafkaConsumer) async throws {
        var ends: [String: Int64] = [:]
        var inputMarks: [Int32: KafkaConsumer.Watermarks] = [:]
        for (topic, _) in topics {
            let marks = try await reader.listedWatermarks(topic: topic, timeoutMs: 3_000)
            ends[topic] = marks.values.reduce(0) { $0 + $1.high }
            if topic == inputTopic { inputMarks = marks }
        }
        let committed = try await reader.committedOffsets(topic: inputTopic, timeoutMs: 3_000)
        let now = ContinuousClock.now
        let before = previous.withLock { previous in
            defer { previous = (ends, now) }
            return previous
        }
        var rates: [TopicRate] = []
        for (topic, role) in topics {
            let end = ends[topic] ?? 0
            var perSecond = 0.0
            if let before, let earlier = before.ends[topic] {
                let elapsed = before.at.duration(to: now)
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                if seconds > 0 { perSecond = Double(max(0, end - earlier)) / seconds }
            }
            rates.append(TopicRate(topic: topic, role: role, end: end, perSecond: perSecond))
        }
        let lag = inputMarks.sorted { $0.key < $1.key }.map { partition, marks -> PartitionLag in
            let commit = committed[partition] ?? nil
            return PartitionLag(
                partition: partition, committed: commit, end: marks.high,
                lag: max(0, marks.high - max(commit ?? marks.low, marks.low)))
        }
        let seen = Int64(Date().timeIntervalSince1970 * 1000)
        state.withLock { $0 = Status(connected: true, error: nil, lastSeenMs: seen, topics: rates, lag: lag) }
    }
}
