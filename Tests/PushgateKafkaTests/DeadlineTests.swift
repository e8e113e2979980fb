import Foundation
import PushgateKafka
import PushgateTestSupport
import Synchronization
import Testing

/// Work that blocks a thread of its own (as a librdkafka call does) until it is released, awaited as a
/// continuation so that the cooperative pool is never blocked.
private final class BlockedWork: Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let finished = Mutex(false)

    var hasFinished: Bool { finished.withLock { $0 } }

    func run() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                self.gate.wait()
                self.finished.withLock { $0 = true }
                continuation.resume()
            }.start()
        }
    }

    func release() { gate.signal() }
}

@Suite("Waiting for work that cannot be cancelled at most a given time", .timeLimit(.minutes(1)))
struct DeadlineTests {
    @Test func workFinishedBeforeTheDeadlineIsReportedAtOnce() async {
        let clock = ContinuousClock()
        var finished = false
        let took = await clock.measure {
            finished = await Deadline.race(.seconds(20)) { try? await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(finished)
        #expect(took < .seconds(5), "the answer does not wait for the deadline")
    }

    @Test func workStillRunningAtTheDeadlineIsLeftRunning() async throws {
        let work = BlockedWork()
        let clock = ContinuousClock()
        var finished = true
        let took = await clock.measure {
            finished = await Deadline.race(.milliseconds(200)) { await work.run() }
        }
        #expect(!finished)
        #expect(took >= .milliseconds(200))
        #expect(took < .seconds(5))
        #expect(!work.hasFinished)
        work.release()
        try await waitUntil("the work left running finishes once released", timeout: .seconds(10)) {
            work.hasFinished
        }
    }

    /// The caller's cancellation does not end the wait early or make it wait forever: the work cannot be
    /// cancelled, so the answer is still the work's end or the deadline, whichever comes first.
    @Test func aCancelledCallerStillGetsTheOutcomeByTheDeadline() async {
        let work = BlockedWork()
        let race = Task { await Deadline.race(.milliseconds(300)) { await work.run() } }
        race.cancel()
        #expect(await race.value == false)
        work.release()

        let quick = Task { await Deadline.race(.seconds(20)) { await Task.yield() } }
        quick.cancel()
        #expect(await quick.value == true)
    }

    /// Work ending as the deadline passes gives one answer, never two (a second resume of the continuation
    /// would stop the process), and `true` only once the work has ended.
    @Test func workEndingAtTheDeadlineGivesOneAnswer() async {
        var early = 0
        for _ in 0..<200 {
            let ended = Mutex(false)
            let finished = await Deadline.race(.milliseconds(1)) {
                try? await Task.sleep(for: .milliseconds(1))
                ended.withLock { $0 = true }
            }
            if finished && !ended.withLock({ $0 }) { early += 1 }
        }
        #expect(early == 0, "answered true before the work ended")
    }
}
