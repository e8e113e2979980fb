import PushgateKafka
import Synchronization

/// The next offset to read of each partition, for readers made again after a failure, and how far
/// reading has come towards each partition's end as it was when reading started.
final class NextOffsets: Sendable {
    private struct State {
        var offsets: [KafkaTopicPartition: Int64] = [:]
        var ends: [KafkaTopicPartition: Int64] = [:]
        var started = false
        /// Records handed over so far, to tell a reader that has gone quiet.
        var passed = 0
    }

    private let state = Mutex(State())

    /// Whether no start has been set yet.
    var isEmpty: Bool { state.withLock { $0.offsets.isEmpty } }

    /// Sets where each partition starts and where it ended when reading started.
    func start(at offsets: [KafkaTopicPartition: Int64], ends: [KafkaTopicPartition: Int64]) {
        state.withLock { state in
            state.offsets = offsets
            state.ends = ends
            state.started = true
        }
    }

    /// Adds the partitions of `offsets` not read yet, each to be read from its offset: partitions that
    /// appeared after reading started (a topic created later, or partitions added to one). Their records
    /// were not there when reading started.
    /// - Returns: the partitions added.
    func add(unknown offsets: [KafkaTopicPartition: Int64]) -> [KafkaTopicPartition] {
        state.withLock { state in
            var added: [KafkaTopicPartition] = []
            for (partition, offset) in offsets where state.offsets[partition] == nil {
                state.offsets[partition] = offset
                added.append(partition)
            }
            return added.sorted { ($0.topic, $0.partition) < ($1.topic, $1.partition) }
        }
    }

    /// Notes that the record at `offset` of `partition` was handed over.
    /// - Returns: whether the record was there when reading started (below its partition's end then).
    @discardableResult
    func passed(_ partition: KafkaTopicPartition, _ offset: Int64) -> Bool {
        state.withLock { state in
            state.offsets[partition] = offset + 1
            state.passed &+= 1
            return offset < state.ends[partition] ?? 0
        }
    }

    /// The next offsets, dealt out over `count` readers partition by partition, so that each reader has
    /// about as many partitions of each topic.
    func shares(_ count: Int) -> [[KafkaTopicPartitionOffset]] {
        let offsets = state.withLock { $0.offsets }.sorted {
            ($0.key.topic, $0.key.partition) < ($1.key.topic, $1.key.partition)
        }
        var shares = [[KafkaTopicPartitionOffset]](repeating: [], count: max(count, 1))
        for (index, entry) in offsets.enumerated() {
            shares[index % shares.count].append(
                KafkaTopicPartitionOffset(topic: entry.key.topic, partition: entry.key.partition, offset: entry.value))
        }
        return shares
    }

    /// Returns once every partition has been read to its end as it was at the start, or no record has
    /// come for `quietLimit` since reading started (a partition may end in records never handed over,
    /// such as transaction markers); or when the task is cancelled.
    func waitUntilCaughtUp(quietLimit: Duration, checkEvery interval: Duration = .milliseconds(50)) async {
        var lastPassed = -1
        var quietSince = ContinuousClock.now
        while !Task.isCancelled {
            let (started, caughtUp, passed) = state.withLock { state in
                (
                    state.started,
                    state.ends.allSatisfy { partition, end in (state.offsets[partition] ?? end) >= end },
                    state.passed
                )
            }
            if started && caughtUp { return }
            if passed != lastPassed || !started {
                (lastPassed, quietSince) = (passed, .now)
            } else if ContinuousClock.now - quietSince >= quietLimit {
                return
            }
            try? await Task.sleep(for: interval)
        }
    }
}
