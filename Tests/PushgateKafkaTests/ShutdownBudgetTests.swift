import Testing

@testable import PushgateKafka

/// SPEC 7's bound, shared out: each step of the stop sequence ends by its share of the timeout, counted
/// from the start of the shutdown, so the whole ends within the timeout whatever each step meets.
@Suite("The shutdown timeout shared out among the stop steps")
struct ShutdownBudgetTests {
    private static let start = ContinuousClock.now

    @Test(arguments: [
        (ShutdownBudget.Step.drained, Duration.seconds(12)),
        (.committed, .seconds(18)),
        (.flushed, .seconds(24)),
        (.left, .milliseconds(28_500)),
    ])
    func eachStepEndsByItsShareOfTheTimeout(step: ShutdownBudget.Step, after: Duration) {
        let budget = ShutdownBudget(total: .seconds(30), start: Self.start)
        #expect(budget.deadline(of: step) - Self.start == after)
    }

    @Test func theStepsEndInOrderAndTheLastBeforeTheTimeout() throws {
        let budget = ShutdownBudget(total: .milliseconds(100), start: Self.start)
        let deadlines = [ShutdownBudget.Step.drained, .committed, .flushed, .left].map(budget.deadline(of:))
        #expect(deadlines == deadlines.sorted())
        #expect(Set(deadlines).count == 4)
        #expect(try #require(deadlines.first) > Self.start)
        let last = try #require(deadlines.last)
        #expect(last < Self.start + .milliseconds(100), "time is left for the process to exit")
    }

    @Test func theTimeLeftCountsFromTheStartOfTheShutdown() {
        let budget = ShutdownBudget(total: .seconds(100), start: .now - .seconds(10))
        let left = budget.left(until: .drained)
        #expect(left <= .seconds(30))
        #expect(left > .seconds(29), "40 s of 100, 10 s of them gone")
    }

    @Test func aDeadlineInThePastLeavesNoTimeRatherThanANegativeOne() {
        let budget = ShutdownBudget(total: .seconds(10), start: .now - .seconds(60))
        for step in [ShutdownBudget.Step.drained, .committed, .flushed, .left] {
            #expect(budget.left(until: step) == .zero)
            #expect(budget.deadline(of: step) < .now)
        }
    }

    @Test func aStepPastItsDeadlineLeavesTheLaterStepsTheirTime() {
        let budget = ShutdownBudget(total: .seconds(10), start: .now - .seconds(5))
        #expect(budget.left(until: .drained) == .zero)
        #expect(budget.left(until: .committed) > .zero)
        #expect(budget.left(until: .committed) <= .seconds(1))
        #expect(budget.left(until: .left) > .seconds(4))
    }
}
