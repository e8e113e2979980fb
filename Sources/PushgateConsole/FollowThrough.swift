import PushgateKafka
import Synchronization

/// What became of re-driven records: the outputs and dead letters pushgate wrote for them, found by
/// the input record they name (`pushgate-source` of an output, `__connect.errors.*` of a dead letter).
///
/// The console reads every output topic (from when it has read the dead-letter topic, or from its first
/// re-drive) and the dead-letter topic whole, and keeps what names a watched record (one it re-drove).
/// A record may be translated before the console learns the offset it re-drove it at, so the most
/// recent ``recentLimit`` other records are kept too, and looked through when a record is watched (not
/// the dead letters there when the console started: they cannot name a record it re-drives).
///
/// What it keeps is bounded whatever the number of re-drives: the outputs' values (the part that weighs)
/// only of the ``valueLimit`` most recent outputs, within ``valueByteLimit`` bytes; older outcomes keep
/// where they are, their format and stage.
public final class FollowThrough: Sendable {
    /// A record pushgate wrote for an input record.
    public struct Outcome: Sendable, Equatable {
        /// The topic it is in.
        public var topic: String
        /// Its partition.
        public var partition: Int32
        /// Its offset.
        public var offset: Int64
        /// The format (`pushgate-format`); for a dead letter, the format of an emit-stage one.
        public var format: String?
        /// Whether it is a dead letter.
        public var isDeadLetter: Bool
        /// Its value, the output JSON; `nil` for a dead letter (its value is the payload: not kept) and
        /// for an output whose value was let go (only the most recent are kept).
        public var value: [UInt8]?
        /// A dead letter's stage.
        public var stage: String?
        /// A dead letter's errors: `nil` here, read back with the letter when it is shown.
        public var errors: [DeadLetter.Problem]?
    }

    /// How many records naming an unwatched source are kept, newest.
    public let recentLimit: Int
    /// How many outputs' values are kept, newest (watched or not).
    public let valueLimit: Int
    /// How many bytes of outputs' values are kept at most.
    public let valueByteLimit: Int
    private let state = Mutex(State())

    private struct State {
        var watched: [String: [Outcome]] = [:]
        var recent: [String: [Outcome]] = [:]
        var recentOrder: [String] = []
        var recentStart = 0
        var seen: Set<Seen> = []
        /// The outcomes holding a value, oldest first from `valuedStart`: where each is (its source, and
        /// its place among the source's outcomes). A place whose outcomes are gone is skipped.
        var valued: [(source: String, position: Int)] = []
        var valuedStart = 0
        var valueBytes = 0
    }

    private struct Seen: Hashable {
        var topic: String
        var partition: Int32
        var offset: Int64
    }

    /// Creates an empty follow-through.
    public init(recentLimit: Int = 20_000, valueLimit: Int = 2_000, valueByteLimit: Int = 16 << 20) {
        self.recentLimit = recentLimit
        self.valueLimit = valueLimit
        self.valueByteLimit = valueByteLimit
    }

    /// Starts keeping what names `source` (`TOPIC:PARTITION:OFFSET`), including what was read already.
    public func watch(_ source: String) {
        state.withLock { state in
            guard state.watched[source] == nil else { return }
            state.watched[source] = state.recent.removeValue(forKey: source) ?? []
        }
    }

    /// What was found for `source` so far, in the order read; `nil` when it is not watched.
    public func outcomes(of source: String) -> [Outcome]? { state.withLock { $0.watched[source] } }

    /// Looks at one record of an output topic.
    public func addOutput(_ message: KafkaConsumerMessage) {
        guard let source = DeadLetter.text(of: "pushgate-source", in: message.headers) else { return }
        let outcome = Outcome(
            topic: message.topic, partition: message.partition, offset: message.offset,
            format: DeadLetter.text(of: "pushgate-format", in: message.headers), isDeadLetter: false,
            value: message.value, stage: nil, errors: nil)
        add(outcome, source: source)
    }

    /// Looks at one dead letter made from the input record `source` (`TOPIC:PARTITION:OFFSET`).
    public func addDeadLetter(
        topic: String, partition: Int32, offset: Int64, source: String, stage: String?, format: String?
    ) {
        let outcome = Outcome(
            topic: topic, partition: partition, offset: offset, format: format, isDeadLetter: true, value: nil,
            stage: stage, errors: nil)
        add(outcome, source: source)
    }

    private func add(_ outcome: Outcome, source: String) {
        let limit = recentLimit
        state.withLock { state in
            // A record read twice (a reader made again after a failure) counts once.
            let seen = Seen(topic: outcome.topic, partition: outcome.partition, offset: outcome.offset)
            guard state.seen.insert(seen).inserted else { return }
            let position: Int
            if state.watched[source] != nil {
                position = state.watched[source]?.count ?? 0
                state.watched[source]?.append(outcome)
            } else {
                position = state.recent[source]?.count ?? 0
                state.recent[source, default: []].append(outcome)
                state.recentOrder.append(source)
                while state.recentOrder.count - state.recentStart > limit {
                    let oldest = state.recentOrder[state.recentStart]
                    state.recentStart += 1
                    if let outcomes = state.recent.removeValue(forKey: oldest) {
                        for old in outcomes {
                            state.seen.remove(Seen(topic: old.topic, partition: old.partition, offset: old.offset))
                            state.valueBytes -= old.value?.count ?? 0
                        }
                    }
                }
                if state.recentStart > limit {
                    state.recentOrder.removeFirst(state.recentStart)
                    state.recentStart = 0
                }
            }
            if let value = outcome.value {
                state.valued.append((source, position))
                state.valueBytes += value.count
                letValuesGo(&state)
            }
        }
    }

    /// Drops the values of the oldest outcomes holding one until what is kept is within the limits.
    private func letValuesGo(_ state: inout State) {
        while state.valued.count - state.valuedStart > valueLimit || state.valueBytes > valueByteLimit,
            state.valuedStart < state.valued.count
        {
            let (source, position) = state.valued[state.valuedStart]
            state.valuedStart += 1
            if let bytes = state.watched[source]?[safe: position]?.value?.count {
                state.watched[source]?[position].value = nil
                state.valueBytes -= bytes
            } else if let bytes = state.recent[source]?[safe: position]?.value?.count {
                state.recent[source]?[position].value = nil
                state.valueBytes -= bytes
            }
        }
        if state.valuedStart > valueLimit {
            state.valued.removeFirst(state.valuedStart)
            state.valuedStart = 0
        }
    }
}

extension Array {
    /// The element at `index`, `nil` when it is out of bounds.
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
