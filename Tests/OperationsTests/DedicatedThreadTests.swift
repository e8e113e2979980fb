import Operations
import Foundation
import Testing

/// Blocking calls run on a thread of their own, not on the cooperative pool.
@Suite struct DedicatedThreadTests {
    struct Refused: Error, Equatable {}

    @Test func resultsAndErrorsComeBack() async throws {
        #expect(try await DedicatedThread.run(name: "t") { 6 * 7 } == 42)
        await #expect(throws: Refused.self) { try await DedicatedThread.run(name: "t") { throw Refused() } }
    }

    @Test func aBlockedThreadDoesNotHoldThePool() async throws {
        // Far more blocking calls than the pool has threads (one per core), all waiting at once: on the
        // pool 16 x 300 ms would take 2.4 s on two cores; on their own threads they finish together.
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask { try await DedicatedThread.run(name: "sleeper") { usleepBlocking(300_000) } }
            }
            try await group.waitForAll()
        }
        #expect(start.duration(to: .now) < .milliseconds(1500))
    }
}

private func usleepBlocking(_ microseconds: UInt32) {
    _ = usleep(microseconds)
}
