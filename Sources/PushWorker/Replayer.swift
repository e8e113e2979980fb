import Foundation
import Logging
import PushgateKafka
import Synchronization

/// How far a replay has got.
public struct ReplayProgress: Sendable, Equatable {
    /// Records read from the source.
    public var read = 0
    /// Records written and acknowledged.
    public var written = 0
    /// Records the filter left out (or skipped as outputs).
    public var skipped = 0
    /// Records the source holds, when known in advance.
    public var total: Int?

    /// Creates an empty progress.
    public init(total: Int? = nil) { self.total = total }
}

/// Writes records into the input topic again, with an idempotent producer, in source order, with
/// `pushgate-*` and `__connect.errors.*` headers stripped, and reports progress.
public final class Replayer: Sendable {
    private let producer: KafkaProducer
    private let targetTopic: String
    private let filter: ReplayFilter
    private let limiter = InFlightLimiter(limit: 1000)
    private let state: Mutex<ReplayProgress>

    /// Creates a replayer writing to `targetTopic`; `total` is the source size when known.
    public init(
        producer: KafkaProducerConfiguration, targetTopic: String, filter: ReplayFilter, total: Int?, logger: Logger
    ) throws {
        self.producer = try KafkaProducer(
            configuration: producer, logger: logger, fatalErrorHandler: { [limiter] in limiter.fail($0) })
        self.targetTopic = targetTopic
        self.filter = filter
        self.state = Mutex(ReplayProgress(total: total))
    }

    /// The progress so far.
    public var progress: ReplayProgress { state.withLock { $0 } }

    /// Changes the known source size (a topic's size is known once its offsets are).
    public func setTotal(_ total: Int?) { state.withLock { $0.total = total } }

    /// Counts records skipped before they reach the replayer (e.g. translate output lines).
    public func countSkipped(_ count: Int) {
        state.withLock {
            $0.skipped += count
            $0.read += count
        }
    }

    /// Writes `record` if the filter accepts it; waits while 1000 records are unacknowledged.
    public func replay(_ record: ReplayRecord) async throws {
        state.withLock { $0.read += 1 }
        guard filter.accepts(record) else {
            state.withLock { $0.skipped += 1 }
            return
        }
        try await limiter.acquire()
        let message = KafkaProducerMessage(
            topic: targetTopic, key: record.key, value: record.value,
            headers: ReplayFilter.forwardedHeaders(record.headers), valueIsNull: record.valueIsNull)
        do {
            try await producer.produceWhenQueued(message) { [self] result in
                switch result {
                case .success:
                    state.withLock { $0.written += 1 }
                    limiter.release()
                case .failure(let error):
                    limiter.fail(error)
                }
            }
        } catch {
            limiter.release()
            throw error
        }
    }

    /// Waits for every record to be acknowledged and shuts the producer down.
    /// - Throws: the first delivery failure.
    public func finish() async throws {
        _ = await limiter.waitUntilIdle(timeout: .seconds(60))
        await producer.shutdown()
        if let failure = limiter.firstFailure { throw failure }
    }

    /// One progress line: `records 1200/5000 (24%), 850 written, 10 skipped, 3100 rec/s, ETA 1s`.
    public static func describe(_ progress: ReplayProgress, elapsedSeconds: Double) -> String {
        let rate = elapsedSeconds > 0 ? Double(progress.read) / elapsedSeconds : 0
        var line = "records \(progress.read)"
        if let total = progress.total, total > 0 {
            line += "/\(total) (\(min(100, progress.read * 100 / total))%)"
        }
        line += ", \(progress.written) written, \(progress.skipped) skipped, \(Int(rate)) rec/s"
        if let total = progress.total, rate > 0, progress.read < total {
            line += ", ETA \(Int((Double(total - progress.read) / rate).rounded(.up)))s"
        }
        return line
    }
}
