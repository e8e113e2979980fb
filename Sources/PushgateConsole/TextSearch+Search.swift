import Logging
import PushgateKafka
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension TextSearch {
    /// One search: a reader of its own over the whole topic, matching each value in place on the
    /// reader's poll thread.
    final class Search: Sendable {
        let needle: [UInt8]
        /// How many letters the index held when the search began.
        let lettersAtStart: Int
        /// Notified when the search is done.
        let finished = ChangeSignal()
        private let state = Mutex(State())

        private struct State {
            var started = false
            var stopped = false
            var task: Task<Void, Never>?
            var found = Found()
            /// Letters found before the index read them: resolved to rows when asked.
            var unresolved: [(partition: Int32, offset: Int64)] = []
            var scanned = 0
            var total = 0
            var ends: [Int32: Int64] = [:]
            var partitionsLeft = Int.max
            var done = false
            var error: String?
            var lastRecord = ContinuousClock.now
        }

        init(needle: [UInt8], lettersAtStart: Int) {
            self.needle = needle
            self.lettersAtStart = lettersAtStart
        }

        /// `true` the first time: the caller starts ``run(topic:configuration:index:logger:)``.
        func start() -> Bool {
            state.withLock { state in
                defer { state.started = true }
                return !state.started
            }
        }

        func attach(_ task: Task<Void, Never>) {
            let stopped = state.withLock { state in
                state.task = task
                return state.stopped
            }
            if stopped { task.cancel() }
        }

        func stop() {
            let task = state.withLock { state in
                state.stopped = true
                return state.task
            }
            task?.cancel()
        }

        /// How far it got (without resolving letters the index has not read yet).
        var progress: Progress {
            state.withLock {
                Progress(found: $0.found, scanned: $0.scanned, total: $0.total, done: $0.done, error: $0.error)
            }
        }

        /// How far it got, with the letters found before the index read them resolved where it has.
        func progress(resolvingWith index: DeadLetterIndex) -> Progress {
            state.withLock { state in
                if !state.unresolved.isEmpty {
                    state.unresolved.removeAll { place in
                        guard let row = index.row(partition: place.partition, offset: place.offset) else {
                            return false
                        }
                        state.found.insert(row)
                        return true
                    }
                }
                return Progress(
                    found: state.found, scanned: state.scanned, total: state.total, done: state.done,
                    error: state.error)
            }
        }

        func run(topic: String, configuration: KafkaConsumerConfiguration, index: DeadLetterIndex, logger: Logger) async
        {
            let needle = self.needle
            let consumer: KafkaConsumer
            do {
                consumer = try KafkaConsumer(
                    configuration: configuration, logger: logger,
                    recordHandler: { [self] record in
                        let matches = record.withValue { DeadLetterQuery.Matcher.contains($0, needle) }
                        let row = matches ? index.row(partition: record.partition, offset: record.offset) : nil
                        let done = self.state.withLock { state -> Bool in
                            guard let end = state.ends[record.partition], record.offset < end else { return false }
                            state.scanned += 1
                            state.lastRecord = .now
                            if matches {
                                if let row {
                                    state.found.insert(row)
                                } else {
                                    state.unresolved.append((record.partition, record.offset))
                                }
                            }
                            guard record.offset == end - 1 else { return false }
                            state.partitionsLeft -= 1
                            if state.partitionsLeft == 0 { state.done = true }
                            return state.done
                        }
                        if done { self.finished.notify() }
                    })
            } catch {
                finish(error: "\(error)")
                return
            }
            do {
                let marks = try await consumer.listedWatermarks(topic: topic, timeoutMs: 10_000)
                let emptyTopic = self.state.withLock { state in
                    state.ends = marks.mapValues(\.high)
                    state.total = marks.values.reduce(0) { $0 + Int($1.high - $1.low) }
                    state.partitionsLeft = marks.values.filter { $0.high > $0.low }.count
                    state.done = state.partitionsLeft == 0
                    state.lastRecord = .now
                    return state.done
                }
                if emptyTopic { finished.notify() }
                try await consumer.assign(
                    marks.map { KafkaTopicPartitionOffset(topic: topic, partition: $0.key, offset: $0.value.low) })
                // Until the record handler says the search is done, or no record came for the idle limit.
                while !Task.isCancelled {
                    let generation = finished.generation
                    let (done, idle) = self.state.withLock { ($0.done, ContinuousClock.now - $0.lastRecord) }
                    if done { break }
                    if idle > TextSearch.idleLimit {
                        finish(error: "no record came for \(TextSearch.idleLimit): the rest is counted as not found")
                        break
                    }
                    await finished.wait(after: generation, atMost: TextSearch.idleLimit - idle)
                }
            } catch {
                finish(error: "\(error)")
            }
            await consumer.close()
        }

        private func finish(error: String) {
            state.withLock { state in
                state.error = state.done ? nil : error
                state.done = true
            }
            finished.notify()
        }
    }
}
