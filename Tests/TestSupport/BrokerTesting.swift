import Logging

/// Settings every test against the embedded broker shares.
public enum BrokerTesting {
    /// Consumer properties that keep group joins quick on the mock cluster (a join waits
    /// `session.timeout.ms` − 1 s after a member leaves).
    public static let quickGroup = ["session.timeout.ms": "6000", "heartbeat.interval.ms": "500"]

    /// For tests that inject Produce errors: one produce request in flight. The embedded broker
    /// (librdkafka 2.0.2's mock) does not check an idempotent producer's sequence numbers, which a Kafka
    /// broker does (a batch whose predecessors were not written is refused, OUT_OF_ORDER_SEQUENCE_NUMBER).
    /// With several requests in flight, an injected error on one batch and success of the next make
    /// librdkafka count the failed batch as written ("implicitly acked by subsequent batch success"):
    /// records lost by the mock, not by the worker.
    public static let producerFaultSafe = ["producer.max.in.flight.requests.per.connection": "1"]

    /// A logger labelled `label` that logs at `level` and above.
    public static func logger(_ label: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = level
        return logger
    }
}

/// Polls `condition` every 100 ms until it holds; throws ``TimedOut`` after `timeout`.
public func waitUntil(_ what: String, timeout: Duration = .seconds(30), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
        try await Task.sleep(for: .milliseconds(100))
    }
}

/// Repeats `body` every 200 ms until it returns a value (an error counts as none yet); throws
/// ``TimedOut`` after `seconds`.
public func eventually<T>(seconds: Double = 30, _ what: String, _ body: () async throws -> T?) async throws -> T {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if let value = try? await body() { return value }
        try await Task.sleep(for: .milliseconds(200))
    }
    throw TimedOut(what: what)
}

/// A test gave up waiting for something.
public struct TimedOut: Error, CustomStringConvertible {
    /// What was waited for.
    public let what: String

    public init(what: String) { self.what = what }

    public var description: String { "timed out waiting until \(what)" }
}
