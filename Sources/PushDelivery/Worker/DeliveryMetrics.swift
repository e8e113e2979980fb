import CoreMetrics
import Synchronization

/// The metrics of `pushgate deliver` (SPEC 10.8), created through a swift-metrics factory (Prometheus in
/// `pushgate deliver`, nothing by default). Labels known at start are made up front; the others (status,
/// outcome and reason) on first use, cached under a lock. Any thread may call every method.
public final class DeliveryMetrics: Sendable {
    /// The metric names.
    public enum Name {
        /// Requests made to a push service, by `platform` and HTTP `status` (`none`: no answer).
        public static let requests = "pushgate_deliver_requests_total"
        /// Final outcomes, by `platform`, `outcome` and `reason` (empty when none).
        public static let outcomes = "pushgate_deliver_outcomes_total"
        /// Requests tried again after an answer that was not final, by `platform`.
        public static let retries = "pushgate_deliver_retries_total"
        /// How long requests took until their answer, by `platform`.
        public static let requestDuration = "pushgate_deliver_request_duration_seconds"
        /// 1 while a platform (an FCM project, a VAPID key of it) is paused for its credentials, else 0.
        public static let paused = "pushgate_deliver_platform_paused"
        /// Delivered records read but not finished.
        public static let recordsInFlight = "pushgate_deliver_records_in_flight"
    }

    private struct RequestKey: Hashable {
        let platform: Platform
        let status: Int?
    }

    private struct OutcomeKey: Hashable {
        let platform: Platform
        let outcome: Outcome
        let reason: String
    }

    private let factory: any MetricsFactory
    private let retriesByPlatform: [Platform: Counter]
    private let durations: [Platform: Timer]
    private let pausedGauges: [Platform: Gauge]
    private let inFlight: Gauge
    private let requestCounters = Mutex<[RequestKey: Counter]>([:])
    private let outcomeCounters = Mutex<[OutcomeKey: Counter]>([:])

    /// Creates every fixed metric with `factory`; the default records nothing.
    public init(factory: any MetricsFactory = NOOPMetricsHandler.instance) {
        self.factory = factory
        var retries: [Platform: Counter] = [:]
        var durations: [Platform: Timer] = [:]
        var paused: [Platform: Gauge] = [:]
        for platform in Platform.allCases {
            let dimensions = [("platform", platform.rawValue)]
            retries[platform] = Counter(label: Name.retries, dimensions: dimensions, factory: factory)
            durations[platform] = Timer(
                label: Name.requestDuration, dimensions: dimensions, preferredDisplayUnit: .seconds, factory: factory)
            let gauge = Gauge(label: Name.paused, dimensions: dimensions, factory: factory)
            gauge.record(0)
            paused[platform] = gauge
        }
        retriesByPlatform = retries
        self.durations = durations
        pausedGauges = paused
        inFlight = Gauge(label: Name.recordsInFlight, factory: factory)
    }

    /// One request to `platform` answered with `status` (`nil`: no answer) after `duration`.
    public func recordRequest(platform: Platform, status: Int?, duration: Duration) {
        let key = RequestKey(platform: platform, status: status)
        let counter = requestCounters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: Name.requests,
                dimensions: [("platform", platform.rawValue), ("status", status.map(String.init) ?? "none")],
                factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
        let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        durations[platform]?.recordNanoseconds(nanoseconds)
    }

    /// One final outcome; `reason` is the receipt's (a label only when it looks like a reason code).
    public func recordOutcome(platform: Platform, outcome: Outcome, reason: String?) {
        let key = OutcomeKey(platform: platform, outcome: outcome, reason: Self.label(reason))
        let counter = outcomeCounters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: Name.outcomes,
                dimensions: [("platform", platform.rawValue), ("outcome", outcome.rawValue), ("reason", key.reason)],
                factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    /// One request to `platform` about to be tried again.
    public func recordRetry(platform: Platform) { retriesByPlatform[platform]?.increment() }

    /// Whether `platform` has anything paused now.
    public func recordPaused(platform: Platform, _ paused: Bool) { pausedGauges[platform]?.record(paused ? 1 : 0) }

    /// How many delivered records are in flight now.
    public func recordInFlight(_ count: Int) { inFlight.record(count) }

    /// A reason as a label: reasons come from the push services, so that only short names of letters,
    /// digits, `_`, `-`, `.` and spaces are kept (the label set stays bounded); others are `other`.
    static func label(_ reason: String?) -> String {
        guard let reason else { return "" }
        let allowed = reason.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: " "):
                true
            default: false
            }
        }
        return allowed && reason.utf8.count <= 64 ? reason : "other"
    }
}
