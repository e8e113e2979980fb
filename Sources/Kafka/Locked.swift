import Foundation

/// A value guarded by a lock, shared between librdkafka's threads, poll threads and async code.
///
/// Sendable only when its value is (as swift-service-lifecycle's `LockedValueBox`): a lock makes access
/// exclusive, but a non-Sendable value handed out of `withLock` could still be shared. Outside the Kafka
/// and worker targets prefer `Synchronization.Mutex`.
public final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    /// Creates the guard around an initial value.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// `@unchecked` is safe: every access to the value goes through `withLock`, and the value is Sendable.
extension Locked: @unchecked Sendable where Value: Sendable {}
