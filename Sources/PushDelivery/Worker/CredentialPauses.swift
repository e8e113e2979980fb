import Logging
import Synchronization

/// The platforms (FCM projects, VAPID keys) paused because their credentials were refused (SPEC 10.6).
///
/// While a key is paused, one request at a time probes it, at the back-off of its consecutive refusals;
/// the other pushes of that key wait for the probe's time and then its answer, or their own expiry. A final answer (or a
/// transient one that is not about credentials) resumes the key and wakes them. An error is logged at
/// most once a minute per key while it stays paused. ``paused`` is what `/ready` names.
public final class CredentialPauses: Sendable {
    private struct Pause {
        var refusals: Int
        var reason: String
        var nextProbe: ContinuousClock.Instant
        var probing = false
        var lastLogged: ContinuousClock.Instant
    }

    private struct State {
        var pauses: [PauseKey: Pause] = [:]
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
        /// Counts the wake-ups: a push told to wait does not sleep through one that came before it slept.
        var wakeUps: UInt64 = 0

        /// Takes the waiters to wake, and counts the wake-up.
        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            wakeUps += 1
            defer { waiters.removeAll() }
            return Array(waiters.values)
        }
    }

    /// Whether a push may be sent now.
    public enum Admission: Sendable, Equatable {
        /// Not paused: send.
        case send
        /// Paused, and this push is the probe: send, then report with ``resume(_:)`` or ``refused(_:reason:)``.
        case probe
        /// Paused: wait until this instant, or a wake-up after `wakeUps` (``wait(until:after:)``), and ask again.
        case wait(until: ContinuousClock.Instant, wakeUps: UInt64)
    }

    private let state = Mutex(State())
    private let policy: RetryPolicy
    private let logger: Logger
    private let logInterval: Duration
    private let onChange: @Sendable (Platform, Bool) -> Void

    /// Creates the set of no pause.
    /// - Parameters:
    ///   - policy: the back-off between probes.
    ///   - logInterval: the least time between two error lines of one key. Default: one minute.
    ///   - onChange: told whether a platform has any key paused, whenever that changes (metrics).
    public init(
        policy: RetryPolicy, logger: Logger, logInterval: Duration = .seconds(60),
        onChange: @escaping @Sendable (Platform, Bool) -> Void = { _, _ in }
    ) {
        self.policy = policy
        self.logger = logger
        self.logInterval = logInterval
        self.onChange = onChange
    }

    /// The keys paused now, sorted.
    public var paused: [PauseKey] { state.withLock { $0.pauses.keys.sorted() } }

    /// Why `/ready` answers 503 (`platform paused: apns (403 InvalidProviderToken)`), `nil` when nothing is paused.
    public var notReadyReason: String? {
        state.withLock { state in
            guard !state.pauses.isEmpty else { return nil }
            let names = state.pauses.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value.reason))" }
            return "credentials refused, paused: " + names.joined(separator: ", ")
        }
    }

    /// Whether a push of `key` may be sent now.
    public func admit(_ key: PauseKey, now: ContinuousClock.Instant = .now) -> Admission {
        state.withLock { state in
            guard var pause = state.pauses[key] else { return .send }
            // While a probe is out, its answer wakes the waiters (``resume(_:)``, ``refused(_:reason:now:)``,
            // ``probeAbandoned(_:)``); the hour only bounds a wait that nothing would end.
            if pause.probing { return .wait(until: now + .seconds(3600), wakeUps: state.wakeUps) }
            if now < pause.nextProbe { return .wait(until: pause.nextProbe, wakeUps: state.wakeUps) }
            pause.probing = true
            state.pauses[key] = pause
            return .probe
        }
    }

    /// The credentials of `key` were refused (`reason` says how, without secrets): pauses it, or keeps it
    /// paused. Only the pause's first refusal and its probes' refusals (`probe`) lengthen the back-off: the
    /// refusals of requests that were already out when the pause began say nothing new.
    public func refused(
        _ key: PauseKey, reason: String, probe: Bool = false, now: ContinuousClock.Instant = .now
    ) {
        let (log, newlyPausedPlatform, waiters) = state.withLock {
            state -> (Bool, Bool, [CheckedContinuation<Void, Never>]) in
            let platformWasPaused = state.pauses.keys.contains { $0.platform == key.platform }
            let existing = state.pauses[key]
            var pause = existing ?? Pause(refusals: 0, reason: reason, nextProbe: now, lastLogged: now - logInterval)
            pause.reason = reason
            let backOff = existing == nil || probe
            if backOff {
                pause.refusals += 1
                pause.probing = false
                pause.nextProbe = now + policy.delay(afterFailures: pause.refusals)
            }
            let log = now - pause.lastLogged >= logInterval
            if log { pause.lastLogged = now }
            state.pauses[key] = pause
            return (log, !platformWasPaused, backOff ? state.takeWaiters() : [])
        }
        if log {
            logger.error(
                "\(key) paused: its credentials were refused (\(reason)); its pushes wait and are tried again")
        }
        if newlyPausedPlatform { onChange(key.platform, true) }
        // The pushes that waited for a probe's answer now wait for the next probe's time.
        for waiter in waiters { waiter.resume() }
    }

    /// The probe of `key` got an answer that is not a refusal of credentials: the pause ends, and the
    /// pushes waiting for it are woken. Does nothing when `key` is not paused.
    public func resume(_ key: PauseKey) {
        let resumed = state.withLock { state -> (waiters: [CheckedContinuation<Void, Never>], platform: Bool)? in
            guard state.pauses.removeValue(forKey: key) != nil else { return nil }
            return (state.takeWaiters(), !state.pauses.keys.contains { $0.platform == key.platform })
        }
        guard let resumed else { return }
        logger.notice("\(key) resumed: its credentials were accepted again")
        if resumed.platform { onChange(key.platform, false) }
        for waiter in resumed.waiters { waiter.resume() }
    }

    /// The probe of `key` ended without an answer (cancelled): another push may probe.
    public func probeAbandoned(_ key: PauseKey) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.pauses[key]?.probing = false
            return state.takeWaiters()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until `deadline`, a probe's answer (or abandon) later than the `wakeUps` an ``Admission`` gave,
    /// or the task's cancellation.
    public func wait(until deadline: ContinuousClock.Instant, after wakeUps: UInt64) async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let resumeNow = self.state.withLock { state in
                            if Task.isCancelled || state.wakeUps != wakeUps { return true }
                            state.waiters[id] = continuation
                            return false
                        }
                        if resumeNow { continuation.resume() }
                    }
                } onCancel: {
                    self.wake(id)
                }
            }
            group.addTask {
                // A deadline (the next probe, the push's own expiry), not a wait for a condition: the
                // continuation above is the signal.
                try? await Task.sleep(until: deadline)
            }
            await group.next()
            group.cancelAll()
        }
    }

    private func wake(_ id: UInt64) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.resume()
    }
}
