import Logging
import PushDelivery
import PushModel
import Synchronization
import Testing

/// The credential pause of SPEC 10.6: a refused platform pauses, its pushes wait and are tried again
/// with the back-off, it resumes on an accepted request, and its records still expire.
struct CredentialPauseTests {
    typealias F = WorkerFixtures

    @Test func aRefusalPausesThePlatformUntilARequestIsAccepted() async throws {
        let changes = PauseChanges()
        let pauses = CredentialPauses(
            policy: F.fastPolicy, logger: Logger(label: "test"),
            onChange: { _, paused in changes.values.withLock { $0.append(paused) } })
        let sender = ScriptedSender(
            [
                "d1": [
                    .credentials(AnswerDetails(status: 403, reason: "InvalidProviderToken")),
                    .credentials(AnswerDetails(status: 403, reason: "InvalidProviderToken")),
                    .final(.delivered, AnswerDetails(status: 200)),
                ]
            ])
        let receipts = InMemoryReceipts()
        let delivery = F.delivery(
            senders: [sender], directory: InMemoryDirectory([F.device("d1")]), receipts: receipts, pauses: pauses)
        #expect(try await delivery.deliver(F.record()))
        #expect(sender.requests == ["d1", "d1", "d1"])
        #expect(receipts.receipts.map(\.outcome) == [.delivered])
        #expect(receipts.receipts.first?.attempts == 3)
        #expect(pauses.paused.isEmpty && pauses.notReadyReason == nil)
        #expect(changes.values.withLock { $0 } == [true, false])
    }

    @Test func whilePausedOneProbeIsSentAndTheOtherPushesWait() async throws {
        let pauses = CredentialPauses(
            policy: RetryPolicy(initialDelay: .milliseconds(200), randomFactor: { _ in 1 }),
            logger: Logger(label: "test"))
        pauses.refused(PauseKey(platform: .apns), reason: "403 InvalidProviderToken")
        #expect(pauses.paused == [PauseKey(platform: .apns)])
        #expect(pauses.notReadyReason == "credentials refused, paused: apns (403 InvalidProviderToken)")
        let devices = (0..<5).map { F.device("d\($0)") }
        let sender = ScriptedSender([:])
        let receipts = InMemoryReceipts()
        let delivery = F.delivery(
            senders: [sender], directory: InMemoryDirectory(devices), receipts: receipts, pauses: pauses)
        let started = ContinuousClock.now
        #expect(try await delivery.deliver(F.record()))
        // Nothing was sent before the probe's back-off; the probe's success released the others.
        let first = try #require(devices.compactMap { sender.times(of: $0.id).first }.min())
        #expect(first - started >= .milliseconds(150))
        #expect(sender.requests.count == 5)
        #expect(receipts.receipts.map(\.outcome) == Array(repeating: .delivered, count: 5))
        #expect(pauses.paused.isEmpty)
    }

    @Test func aPausedPlatformsRecordsStillExpire() async throws {
        let pauses = CredentialPauses(
            policy: RetryPolicy(initialDelay: .seconds(600), maximumDelay: .seconds(600), randomFactor: { _ in 1 }),
            logger: Logger(label: "test"))
        pauses.refused(PauseKey(platform: .apns), reason: "403 Forbidden")
        let clock = WallClock(start: 999_850)
        let sender = ScriptedSender([:])
        let receipts = InMemoryReceipts()
        let delivery = F.delivery(
            senders: [sender], directory: InMemoryDirectory([F.device("d1")]), receipts: receipts, pauses: pauses,
            now: clock.now)
        // Expires 150 ms after "now".
        let started = ContinuousClock.now
        let done = try await delivery.deliver(F.record(headers: [("apns-expiration", "1000")]))
        #expect(done)
        // Long before the probe's back-off (600 s): the expiry ended the wait.
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(sender.requests.isEmpty)
        #expect(receipts.receipts.map(\.outcome) == [.expired])
    }

    @Test func keysArePerFCMProjectAndVAPIDKeyButOneForAPNs() {
        #expect(PauseKey(platform: .apns, scope: "com.a") == PauseKey(platform: .apns))
        #expect(PauseKey(platform: .fcm, scope: "p1") != PauseKey(platform: .fcm, scope: "p2"))
        #expect(PauseKey(platform: .fcm, scope: "p1").description == "fcm project p1")
        #expect(PauseKey(platform: .webpush, scope: "site").description == "webpush key site")
    }

    @Test func refusalsOfRequestsSentBeforeThePauseDoNotLengthenItsBackOff() {
        let pauses = CredentialPauses(
            policy: RetryPolicy(initialDelay: .seconds(1), randomFactor: { _ in 1 }), logger: Logger(label: "test"))
        let key = PauseKey(platform: .apns)
        let start = ContinuousClock.now
        // 40 requests were out when the credentials were revoked: 40 refusals, one pause, its first back-off.
        for _ in 0..<40 { pauses.refused(key, reason: "403 InvalidProviderToken", now: start) }
        #expect(pauses.admit(key, now: start + .milliseconds(900)) != .probe)
        #expect(pauses.admit(key, now: start + .seconds(1)) == .probe)
        // The probe's refusal doubles it; a late answer of an earlier request neither doubles it nor ends the probe.
        pauses.refused(key, reason: "403 InvalidProviderToken", now: start + .seconds(1))
        pauses.refused(key, reason: "403 InvalidProviderToken", probe: true, now: start + .seconds(1))
        #expect(pauses.admit(key, now: start + .milliseconds(2900)) != .probe)
        #expect(pauses.admit(key, now: start + .seconds(3)) == .probe)
        pauses.refused(key, reason: "403 InvalidProviderToken", now: start + .seconds(3))
        #expect(pauses.admit(key, now: start + .seconds(4)) != .probe)
    }

    @Test func theErrorIsLoggedAtMostOnceAMinute() {
        let log = LogLines()
        var logger = Logger(label: "test") { _ in log }
        logger.logLevel = .info
        let pauses = CredentialPauses(policy: F.fastPolicy, logger: logger)
        let key = PauseKey(platform: .apns)
        let start = ContinuousClock.now
        pauses.refused(key, reason: "403 InvalidProviderToken", now: start)
        pauses.refused(key, reason: "403 InvalidProviderToken", now: start + .seconds(30))
        pauses.refused(key, reason: "403 InvalidProviderToken", now: start + .seconds(59))
        #expect(log.errors.count == 1)
        pauses.refused(key, reason: "403 InvalidProviderToken", now: start + .seconds(61))
        #expect(log.errors.count == 2)
        #expect(log.errors.allSatisfy { $0.contains("apns paused") && $0.contains("InvalidProviderToken") })
    }
}

/// A wall clock that starts at `start` ms and runs with real time.
final class WallClock: Sendable {
    private let origin = ContinuousClock.now
    private let start: Int64
    init(start: Int64) { self.start = start }
    var now: @Sendable () -> Int64 {
        { [origin, start] in
            let elapsed = ContinuousClock.now - origin
            return start + elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        }
    }
}

/// A log handler that keeps the messages at error level.
final class LogLines: LogHandler, @unchecked Sendable {
    // The handler's own metadata and level are only touched through swift-log's value semantics on one task.
    private let lines = Mutex<[String]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if event.level >= .error { lines.withLock { $0.append("\(event.message)") } }
    }

    var errors: [String] { lines.withLock { $0 } }
}

/// The pause changes reported, in order.
final class PauseChanges: Sendable {
    let values = Mutex<[Bool]>([])
}
