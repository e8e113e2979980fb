import Testing

@testable import PushgateConsole

/// A wait that is not woken lasts an hour: the suite's time limit fails it instead (no assertion on speed).
@Suite("Console: a change signal wakes its waiters instead of their polling", .timeLimit(.minutes(1)))
struct ChangeSignalTests {
    /// A notify between reading the generation and waiting is not missed: the wait returns at once.
    @Test func aNotifyBeforeTheWaitIsNotMissed() async {
        let signal = ChangeSignal()
        let generation = signal.generation
        signal.notify()
        await signal.wait(after: generation, atMost: .seconds(3600))
        #expect(signal.generation != generation)
        #expect(signal.waiting == 0)
    }

    /// A waiter returns on the notify, long before its bound.
    @Test func aNotifyWakesTheWaiter() async {
        let signal = ChangeSignal()
        let waiter = Task { await signal.wait(after: signal.generation, atMost: .seconds(3600)) }
        while signal.waiting == 0 { await Task.yield() }
        signal.notify()
        await waiter.value
        #expect(signal.waiting == 0)
    }

    /// Without a notify, the wait ends at its bound.
    @Test func theBoundEndsTheWait() async {
        let signal = ChangeSignal()
        let start = ContinuousClock.now
        await signal.wait(after: signal.generation, atMost: .milliseconds(200))
        #expect(ContinuousClock.now - start >= .milliseconds(200))
        #expect(signal.waiting == 0)
    }

    /// Cancelling the waiting task ends a wait without a bound.
    @Test func cancellationEndsTheWait() async {
        let signal = ChangeSignal()
        let waiter = Task { await signal.wait(after: signal.generation) }
        while signal.waiting == 0 { await Task.yield() }
        waiter.cancel()
        await waiter.value
        #expect(signal.waiting == 0)
    }

    /// A ready flag set while a task waits for it wakes that task.
    @Test func aReadyFlagWakesItsWaiter() async {
        let flag = ReadyFlag()
        let waiter = Task { await flag.wait(atMost: .seconds(3600)) }
        try? await Task.sleep(for: .milliseconds(50))
        flag.set()
        await waiter.value
        #expect(!waiter.isCancelled)
    }
}
