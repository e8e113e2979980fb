import Foundation
import Logging
import Synchronization

/// The OAuth 2.0 access token of one Firebase project (SPEC 10.4): got with the JWT-bearer grant from the service
/// account's own `token_uri`, used until 5 minutes before its `expires_in` runs out (half its lifetime when that is
/// 10 minutes or less), made again at once when FCM answers 401 (``renew(replacing:)``). One grant at a time: the
/// sends that need a token while a grant is posted wait for that grant. Safe to share between tasks.
public final class FCMAccessToken: Sendable {
    /// Posts a grant: `url`, headers, body; what came of it.
    public typealias Exchange =
        @Sendable (_ url: String, _ headers: [(name: String, value: String)], _ body: [UInt8]) async -> HTTPExchange

    /// How long before its expiry a token is replaced: 5 minutes, as firebase-admin does.
    public static let refreshMargin: Int64 = 300

    /// What a grant came to.
    public enum Grant: Sendable, Hashable {
        /// An access token to send with.
        case token(String)
        /// No token: what the push's answer is (credentials refused, or transient: the token endpoint is down).
        case failed(PushAnswer)
    }

    private struct State {
        var token: String?
        /// When the token is replaced, in seconds since 1970.
        var refreshAt: Int64 = 0
        var obtainedAt: Int64 = 0
        var pending: Task<Grant, Never>?
        var grants = 0
    }

    /// The account whose grant it posts.
    public let account: FCMServiceAccount
    private let exchange: Exchange
    private let clock: @Sendable () -> Int64
    private let logger: Logger
    private let state = Mutex(State())

    /// Creates the token source of `account`, posting grants with `exchange`; `now` gives the seconds since 1970
    /// of the assertion's `iat` and of the token's expiry (the system clock; tests pass their own).
    public init(
        account: FCMServiceAccount, logger: Logger,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }, exchange: @escaping Exchange
    ) {
        self.account = account
        self.exchange = exchange
        self.clock = now
        self.logger = logger
    }

    /// Creates the token source of `account`, posting grants with `http`.
    public convenience init(
        account: FCMServiceAccount, http: PushHTTPClient, logger: Logger,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.init(account: account, logger: logger, now: now) { url, headers, body in
            await http.post(url: url, headers: headers, body: body)
        }
    }

    /// How many grants were posted (metrics, tests).
    public var grantsPosted: Int { state.withLock { $0.grants } }

    /// The token to use now: the cached one, or the answer of a grant (the one being posted, or a new one).
    public func current() async -> Grant {
        let now = clock()
        enum Step {
            case cached(String)
            case wait(Task<Grant, Never>)
        }
        let step = state.withLock { state -> Step in
            if let token = state.token, now >= state.obtainedAt, now < state.refreshAt { return .cached(token) }
            if let pending = state.pending { return .wait(pending) }
            state.grants += 1
            let task = Task { await self.grant() }
            state.pending = task
            return .wait(task)
        }
        switch step {
        case .cached(let token): return .token(token)
        case .wait(let task): return await task.value
        }
    }

    /// The token to use after FCM answered 401 to `used`: a new grant if `used` is still the cached token, else the
    /// current token. Many sends refused together thus make one grant, not one each.
    public func renew(replacing used: String) async -> Grant {
        state.withLock { state in
            if state.token == used { state.token = nil }
        }
        return await current()
    }

    /// Posts a grant and caches its token; clears the pending grant.
    private func grant() async -> Grant {
        let issuedAt = clock()
        let result: Grant
        do {
            let assertion = try FCMGrantAssertion.make(for: account, issuedAt: issuedAt)
            let answer = await exchange(
                account.tokenURI, [(name: "content-type", value: "application/x-www-form-urlencoded")],
                FCMGrantAssertion.formBody(assertion: assertion))
            result = read(answer, issuedAt: issuedAt)
        } catch {
            logger.error(
                "cannot sign the FCM grant assertion",
                metadata: [
                    "project": "\(account.projectID)", "error_type": "\(String(reflecting: type(of: error)))",
                ])
            result = .failed(.credentials(AnswerDetails(reason: "assertion_not_signed")))
        }
        state.withLock { state in
            state.pending = nil
            if case .token(let token) = result { state.token = token }
        }
        return result
    }

    /// What the token endpoint's answer means; caches the expiry of a token.
    private func read(_ exchange: HTTPExchange, issuedAt: Int64) -> Grant {
        let answer: HTTPAnswer
        switch exchange {
        case .failed(let failure):
            logger.debug(
                "FCM token endpoint without an answer",
                metadata: ["project": "\(account.projectID)", "reason": "\(failure.reason)"])
            return .failed(.transient(AnswerDetails(reason: "grant_" + failure.reason), retryAfter: nil))
        case .answered(let answered): answer = answered
        }
        let status = answer.status
        let object = answer.body.flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
        switch status {
        case 200..<300:
            guard let token = object?["access_token"] as? String, !token.isEmpty,
                APNsRequest.isHeaderValue(Array(token.utf8)), !token.contains(" ")
            else {
                logger.error(
                    "the FCM token endpoint answered without a usable access_token",
                    metadata: ["project": "\(account.projectID)", "status": "\(status)"])
                return .failed(.credentials(AnswerDetails(status: status, reason: "grant_answer_invalid")))
            }
            let lifetime = Self.seconds(object?["expires_in"]) ?? FCMGrantAssertion.lifetimeSeconds
            let usable = lifetime > 2 * Self.refreshMargin ? lifetime - Self.refreshMargin : lifetime / 2
            state.withLock { state in
                state.obtainedAt = issuedAt
                state.refreshAt = issuedAt + usable
            }
            return .token(token)
        case 408, 429, 500...599:
            let retryAfter = answer.header("retry-after").flatMap { RetryAfter.parse($0, now: clock()) }
            return .failed(
                .transient(AnswerDetails(status: status, reason: "grant_unavailable"), retryAfter: retryAfter))
        default:
            let error = (object?["error"] as? String).map(Self.printable) ?? "none"
            logger.warning(
                "the FCM token endpoint refused the grant",
                metadata: ["project": "\(account.projectID)", "status": "\(status)", "error": "\(error)"])
            return .failed(.credentials(AnswerDetails(status: status, reason: "grant_refused")))
        }
    }

    /// `expires_in`: a number of seconds, or a numeric string (google-auth accepts both).
    static func seconds(_ value: Any?) -> Int64? {
        if let text = value as? String { return Int64(text).flatMap { $0 >= 0 ? $0 : nil } }
        if let number = value as? NSNumber, !(value is Bool) {
            let seconds = number.doubleValue
            guard seconds.isFinite, seconds >= 0, seconds < 1e12 else { return nil }
            return Int64(seconds.rounded(.down))
        }
        return nil
    }

    /// An OAuth error code as logs may show it: at most 64 letters, digits and `_`.
    private static func printable(_ text: String) -> String {
        let kept = text.unicodeScalars.filter { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
        }
        return String(String.UnicodeScalarView(kept.prefix(64)))
    }
}
