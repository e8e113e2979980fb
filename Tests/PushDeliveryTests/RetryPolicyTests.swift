import PushDelivery
import Testing

/// The back-off of SPEC 10.6: 1 s doubled up to 60 s, times a factor in [0.8, 1.2], at least Retry-After.
struct RetryPolicyTests {
    private func policy(factor: Double) -> RetryPolicy { RetryPolicy(randomFactor: { _ in factor }) }

    @Test func theBackOffDoublesFromOneSecondUpToAMinute() {
        let delays = (1...9).map { policy(factor: 1).delay(afterFailures: $0) }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
    }

    @Test func eachWaitIsMultipliedByTheRandomFactorWithinItsRange() {
        #expect(policy(factor: 0.8).delay(afterFailures: 3) == .milliseconds(3200))
        #expect(policy(factor: 1.2).delay(afterFailures: 7) == .seconds(72))
        // A source that strays out of the range is held to it.
        #expect(policy(factor: 5).delay(afterFailures: 1) == .milliseconds(1200))
        #expect(policy(factor: 0).delay(afterFailures: 1) == .milliseconds(800))
        let drawn = RetryPolicy().delay(afterFailures: 2)
        #expect(drawn >= .milliseconds(1600) && drawn <= .milliseconds(2400))
    }

    @Test func theRangeGivenToTheSourceIsTheJitter() {
        let seen = RangeBox()
        _ = RetryPolicy(randomFactor: { range in
            seen.range = range
            return 1
        }).delay(afterFailures: 1)
        #expect(seen.range == 0.8...1.2)
    }

    @Test func retryAfterIsWaitedAtLeast() {
        #expect(policy(factor: 1).delay(afterFailures: 1, retryAfter: .seconds(30)) == .seconds(30))
        #expect(policy(factor: 1).delay(afterFailures: 4, retryAfter: .seconds(2)) == .seconds(8))
        #expect(policy(factor: 1.2).delay(afterFailures: 7, retryAfter: .seconds(600)) == .seconds(600))
    }

    @Test func giveUpAfterDefaultsToADay() {
        #expect(RetryPolicy().giveUpAfter == .seconds(86_400))
    }
}

private final class RangeBox: @unchecked Sendable {
    // Written once by the policy's call, on the test's own task, then read: no concurrent access.
    var range: ClosedRange<Double>?
}
