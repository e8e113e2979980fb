import Foundation
import Logging

/// Posts pushes to FCM HTTP v1 (SPEC 10.4) over the shared HTTP client and classifies the answers (10.6).
///
/// A device's project is its `app`, or the only project when one `--fcm-credentials` is given and the device names
/// none. One call makes one request; when FCM answers 401 it gets a new access token once and sends the same
/// request again. Nothing it logs names a registration token, a key, an assertion or an access token.
public struct FCMSender: PushSender {
    /// Always ``Platform/fcm``.
    public var platform: Platform { .fcm }

    /// The base URL of `messages:send`, without a trailing `/` (`--fcm-endpoint`).
    public let endpoint: String
    private let projects: [String: FCMAccessToken]
    private let http: PushHTTPClient
    private let logger: Logger
    private let now: @Sendable () -> Int64

    /// The default endpoint.
    public static let defaultEndpoint = "https://fcm.googleapis.com"

    /// Creates a sender for the projects of `tokens` (one per service account) posting to `endpoint` with `http`
    /// (shared with the other senders); `now` gives the seconds since 1970 an HTTP-date `Retry-After` is counted
    /// from.
    public init(
        tokens: [FCMAccessToken], endpoint: String = defaultEndpoint, http: PushHTTPClient, logger: Logger,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        var projects: [String: FCMAccessToken] = [:]
        for token in tokens { projects[token.account.projectID] = token }
        self.projects = projects
        var base = Substring(endpoint)
        while base.hasSuffix("/") { base = base.dropLast() }
        self.endpoint = String(base)
        self.http = http
        self.logger = logger
        self.now = now
    }

    /// The project ids served, sorted.
    public var projectIDs: [String] { projects.keys.sorted() }

    /// The project `push` is sent with (the device's `app`, else the only project): a refusal of its credentials
    /// pauses that project, whether devices name it or not (SPEC 10.6).
    public func pauseScope(of push: DevicePush) -> String? {
        push.device?.app ?? (projects.count == 1 ? projects.keys.first : nil)
    }

    /// Sends `push` and says what came of it (never throws: every failure is a ``PushAnswer``).
    public func send(_ push: DevicePush) async -> PushAnswer {
        guard let device = push.device, case .fcm(let registrationToken) = device.address else {
            return .final(.rejected, AnswerDetails(reason: "not_fcm"))
        }
        guard let project = pauseScope(of: push) else { return .final(.rejected, AnswerDetails(reason: "no_app")) }
        guard let accessTokens = projects[project] else {
            return .final(.rejected, AnswerDetails(reason: "unknown_app"))
        }
        let body: FCMMessageBody
        switch FCMMessageBody.make(token: registrationToken, value: push.record.value) {
        case .success(let made): body = made
        case .failure(let refusal): return .final(.rejected, AnswerDetails(reason: refusal.rawValue))
        }
        let url = endpoint + "/v1/projects/" + accessTokens.account.projectID + "/messages:send"
        let token: String
        switch await accessTokens.current() {
        case .token(let granted): token = granted
        case .failed(let answer): return answer
        }
        var exchange = await post(url: url, body: body.bytes, token: token)
        if case .answered(let answer) = exchange, FCMAnswerClassifier.asksForNewAccessToken(answer) {
            logger.debug(
                "FCM refused the access token: sending the request again with a new one",
                metadata: ["record": "\(push.record.coordinates)", "project": "\(accessTokens.account.projectID)"])
            switch await accessTokens.renew(replacing: token) {
            case .token(let renewed): exchange = await post(url: url, body: body.bytes, token: renewed)
            case .failed(let answer): return answer
            }
        }
        if case .failed(let failure) = exchange {
            logger.debug(
                "FCM request without an answer",
                metadata: [
                    "record": "\(push.record.coordinates)", "reason": "\(failure.reason)",
                    "error_type": "\(failure.errorType)",
                ])
        }
        return FCMAnswerClassifier.classify(exchange, validateOnly: body.validateOnly, now: now())
    }

    private func post(url: String, body: [UInt8], token: String) async -> HTTPExchange {
        await http.post(
            url: url,
            headers: [
                (name: "authorization", value: "Bearer " + token), (name: "content-type", value: "application/json"),
            ],
            body: body)
    }
}
