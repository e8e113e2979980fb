/// When a request that got no final answer is tried again (SPEC 10.6): exponential back-off from
/// ``initialDelay``, doubled each time up to ``maximumDelay``, each wait multiplied by a random factor of
/// ``jitter``, and never shorter than the service's `Retry-After`; nothing is tried after ``giveUpAfter``
/// since the first try.
public struct RetryPolicy: Sendable {
    /// The first back-off. Default: 1 s.
    public var initialDelay: Duration
    /// The longest back-off before jitter. Default: 60 s.
    public var maximumDelay: Duration
    /// The range of the random factor each back-off is multiplied by. Default: 0.8 to 1.2.
    public var jitter: ClosedRange<Double>
    /// How long after the first try a pair without a final answer is `expired` (`--give-up-after`).
    /// Default: 24 h.
    public var giveUpAfter: Duration
    /// Draws the random factor from a range; injectable so that tests can fix it.
    public var randomFactor: @Sendable (ClosedRange<Double>) -> Double

    /// Creates a policy; the defaults are SPEC 10.6's.
    public init(
        initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(60),
        jitter: ClosedRange<Double> = 0.8...1.2, giveUpAfter: Duration = .seconds(24 * 3600),
        randomFactor: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.giveUpAfter = giveUpAfter
        self.randomFactor = randomFactor
    }

    /// The back-off before the attempt that follows `failures` answers that were not final (1 for the
    /// wait after the first), jittered, and at least `retryAfter` when the service gave one.
    public func delay(afterFailures failures: Int, retryAfter: Duration? = nil) -> Duration {
        var base = initialDelay
        var doublings = max(failures, 1) - 1
        while doublings > 0, base < maximumDelay {
            base = base * 2
            doublings -= 1
        }
        base = min(base, maximumDelay)
        let factor = min(max(randomFactor(jitter), jitter.lowerBound), jitter.upperBound)
        let jittered = base * factor
        guard let retryAfter else { return jittered }
        return max(jittered, retryAfter)
    }
}
