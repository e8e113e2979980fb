import Foundation

/// A value guarded by a lock, shared between librdkafka's threads, poll threads and async code.
///
/// `@unchecked Sendable` is safe because every access to `value` goes through `withLock`.
public final class Locked<Value>: @unchecked Sendable {
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
