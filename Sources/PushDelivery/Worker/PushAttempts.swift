import Foundation
import PushgateKafka
import PushgateTracing

/// Sends one push until it has a final outcome (SPEC 10.6): waits while its platform is paused, takes
/// one of the platform's request slots (`--max-in-flight-requests`) per request, retries what is
/// transient with the back-off, and gives up as `expired` when the record's expiry or `--give-up-after`
/// comes first. A task cancelled before a final answer (shutdown) gets none: the push is abandoned and
/// its record stays uncommitted.
public struct PushAttempts: Sendable {
    /// The sender of each enabled platform.
    let senders: [Platform: any PushSender]
    /// The concurrent requests of each platform.
    let requestSlots: [Platform: InFlightLimiter]
    let pauses: CredentialPauses
    let policy: RetryPolicy
    let metrics: DeliveryMetrics
    /// Now, in ms since 1970 (expiries are wall-clock times).
    let wallClock: @Sendable () -> Int64
    /// Makes a `POST` span per request of a sampled record, children of its span (SPEC section 11); `nil`: tracing
    /// is off.
    let tracer: RecordTracer?

    /// Creates the attempts of pushes through `senders`.
    public init(
        senders: [any PushSender], maxInFlightRequests: Int, pauses: CredentialPauses, policy: RetryPolicy,
        metrics: DeliveryMetrics, wallClock: @escaping @Sendable () -> Int64 = DeliveryClock.nowMilliseconds,
        tracer: RecordTracer? = nil
    ) {
        var byPlatform: [Platform: any PushSender] = [:]
        var slots: [Platform: InFlightLimiter] = [:]
        for sender in senders {
            byPlatform[sender.platform] = sender
            slots[sender.platform] = InFlightLimiter(limit: maxInFlightRequests)
        }
        self.senders = byPlatform
        self.requestSlots = slots
        self.pauses = pauses
        self.policy = policy
        self.metrics = metrics
        self.wallClock = wallClock
        self.tracer = tracer
    }

    /// Whether a sender serves `platform`.
    public func serves(_ platform: Platform) -> Bool { senders[platform] != nil }

    /// The app `push` is sent with on `platform`, as its sender chooses it (a device's `app`, else the only
    /// FCM project or VAPID key); `nil` when no sender serves the platform or it names none.
    public func app(of push: DevicePush, platform: Platform) -> String? {
        senders[platform]?.pauseScope(of: push)
    }

    /// Sends `push` on `platform` until it has a final outcome; `nil` when the task is cancelled first.
    public func deliver(_ push: DevicePush, platform: Platform, expiry: RecordExpiry) async -> FinalAnswer? {
        guard let sender = senders[platform], let slots = requestSlots[platform] else {
            return final(.rejected, AnswerDetails(reason: "platform_not_enabled"), attempts: 0)
        }
        let key = PauseKey(platform: platform, scope: sender.pauseScope(of: push))
        let start = ContinuousClock.now
        var deadline = start + policy.giveUpAfter
        if case .at(let milliseconds) = expiry {
            let left = milliseconds - wallClock()
            deadline = min(deadline, start + .milliseconds(left))
        }
        var attempts = 0
        var failures = 0
        var last = AnswerDetails()
        while true {
            if Task.isCancelled { return nil }
            if ContinuousClock.now >= deadline || expiry.hasPassed(atMilliseconds: wallClock())
                || (expiry == .oneAttempt && attempts > 0)
            {
                return final(.expired, last, attempts: attempts)
            }
            let probing: Bool
            switch pauses.admit(key) {
            case .wait(let until, let wakeUps):
                await pauses.wait(until: min(until, deadline), after: wakeUps)
                continue
            case .send: probing = false
            case .probe: probing = true
            }
            do {
                try await slots.acquire()
            } catch {
                if probing { pauses.probeAbandoned(key) }
                return nil
            }
            let sent = ContinuousClock.now
            let answer = await send(push, with: sender, platform: platform)
            slots.release()
            // A final answer without a status is the sender's own refusal (an endpoint not allowed, an unknown app):
            // no request was made, and receipts count requests.
            if case .final(let outcome, let details) = answer, details.status == nil {
                if probing { pauses.resume(key) }
                return final(outcome, details, attempts: attempts)
            }
            attempts += 1
            metrics.recordRequest(platform: platform, status: answer.details.status, duration: .now - sent)
            switch answer {
            case .final(let outcome, let details):
                if probing { pauses.resume(key) }
                return final(outcome, details, attempts: attempts)
            case .transient(let details, let retryAfter):
                if probing { pauses.resume(key) }
                if Task.isCancelled { return nil }
                last = details
                failures += 1
                guard expiry != .oneAttempt else { continue }
                let wait = policy.delay(afterFailures: failures, retryAfter: retryAfter)
                if ContinuousClock.now + wait < deadline { metrics.recordRetry(platform: platform) }
                // A back-off: the time itself is what is waited for.
                try? await Task.sleep(until: min(ContinuousClock.now + wait, deadline))
            case .credentials(let details):
                if Task.isCancelled {
                    if probing { pauses.probeAbandoned(key) }
                    return nil
                }
                last = details
                pauses.refused(key, reason: Self.describe(details), probe: probing)
                if expiry != .oneAttempt { metrics.recordRetry(platform: platform) }
            }
        }
    }

    /// `sender`'s answer to `push`, the requests it makes traced when tracing is on (SPEC section 11).
    private func send(_ push: DevicePush, with sender: any PushSender, platform: Platform) async -> PushAnswer {
        guard let tracer, let record = RecordTrace.current, record.isSampled else { return await sender.send(push) }
        let spans = RequestSpans(tracer: tracer, record: record)
        let answer = await RequestSpans.$current.withValue(spans) { await sender.send(push) }
        spans.end(platform: platform, outcome: RequestSpans.outcome(of: answer))
        return answer
    }

    private func final(_ outcome: Outcome, _ details: AnswerDetails, attempts: Int) -> FinalAnswer {
        FinalAnswer(outcome: outcome, details: details, attempts: attempts, atMilliseconds: wallClock())
    }

    /// `403 InvalidProviderToken`: what a refusal says, for logs and `/ready` (never a secret).
    static func describe(_ details: AnswerDetails) -> String {
        [details.status.map(String.init), details.reason].compactMap { $0 }.joined(separator: " ")
    }
}

/// The wall clock of delivery.
public enum DeliveryClock {
    /// Now, in milliseconds since 1970.
    @Sendable public static func nowMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
