import Foundation
import PushWorker
import Synchronization
import Testing

/// Blocking calls run on a thread of their own, not on the cooperative pool.
@Suite struct DedicatedThreadTests {
    struct Refused: Error, Equatable {}

    @Test func resultsAndErrorsComeBack() async throws {
        #expect(try await DedicatedThread.run(name: "t") { 6 * 7 } == 42)
        await #expect(throws: Refused.self) { try await DedicatedThread.run(name: "t") { throw Refused() } }
    }

    @Test func blockedCallsDoNotHoldThePool() async throws {
        // 16 blocking calls that can only finish once all 16 are running at the same time: on the
        // cooperative pool (one thread per core) at most a few run at once and each gives up after 10 s;
        // on threads of their own all 16 meet at once, whatever else the machine is doing.
        let running = RunningCount()
        let calls = 16
        let met = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<calls {
                group.addTask {
                    try await DedicatedThread.run(name: "waiter") {
                        running.value.add(1, ordering: .sequentiallyConsistent)
                        let deadline = ContinuousClock.now + .seconds(10)
                        while running.value.load(ordering: .sequentiallyConsistent) < calls {
                            if ContinuousClock.now > deadline { return false }
                            usleep(1000)
                        }
                        return true
                    }
                }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(met)
    }
}

/// How many blocking calls are running, shared by them.
private final class RunningCount: Sendable {
    let value = Atomic<Int>(0)
}
