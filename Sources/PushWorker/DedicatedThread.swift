import Foundation

/// Runs a blocking call (a file read, an embedded broker's setup) on a thread of its own, so that it
/// never holds one of the cooperative pool's threads (one per core here) while it waits.
public enum DedicatedThread {
    /// The result of `body`, run on a new thread named `name`; the caller suspends until it returns.
    public static func run<Result: Sendable>(
        name: String, _ body: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            let thread = Thread {
                continuation.resume(with: Swift.Result { try body() })
            }
            thread.name = name
            thread.start()
        }
    }

}
