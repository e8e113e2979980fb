import Foundation
import Logging

/// Posts pushes to browsers' push services (SPEC 10.5) over the shared HTTP client and classifies the answers (10.6).
///
/// Before anything else the endpoint is read strictly and checked against the allow-list: an endpoint outside it is
/// `rejected` with `endpoint_not_allowed` and nothing is resolved or connected. Then the device's VAPID key (its
/// `app`, else the only key), the headers, the encrypted body and the key's token for the endpoint's origin. One call
/// makes one request. Nothing it logs names an endpoint's path, a key or a token.
public struct WebPushSender: PushSender {
    /// Always ``Platform/webpush``.
    public var platform: Platform { .webpush }

    /// The token source of each VAPID key, by name.
    public let keys: [String: VAPIDToken]
    /// Which hosts may be requested.
    public let allowList: WebPushAllowList
    private let http: PushHTTPClient
    private let logger: Logger
    private let now: @Sendable () -> Int64

    /// Creates a sender; `now` gives the seconds since 1970 an HTTP-date `Retry-After` is counted from.
    public init(
        keys: [String: VAPIDToken], allowList: WebPushAllowList, http: PushHTTPClient, logger: Logger,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.keys = keys
        self.allowList = allowList
        self.http = http
        self.logger = logger
        self.now = now
    }

    /// Why a push is not sent: a final `rejected` outcome with pushgate's own reason.
    public enum Refusal: String, Error, Sendable, Hashable {
        /// The endpoint is not an `https` URL of an allowed host (SPEC 10.5).
        case endpointNotAllowed = "endpoint_not_allowed"
        /// The device names no key and more than one `--vapid-key` is given.
        case noApp = "no_app"
        /// The device's `app` names no `--vapid-key`.
        case unknownApp = "unknown_app"
        /// A `webpush-*` header has bytes a header value cannot carry.
        case invalidHeader = "invalid_header"
        /// The push has no web push device.
        case notWebPush = "not_webpush"
    }

    /// The name of the VAPID key `push` is signed with (the device's `app`, else the only key): a refusal pauses
    /// that key, whether devices name it or not.
    public func pauseScope(of push: DevicePush) -> String? {
        push.device?.app ?? (keys.count == 1 ? keys.keys.first : nil)
    }

    /// Where a push goes and with which key, or why it does not go.
    public func route(_ push: DevicePush) -> Result<(endpoint: WebPushEndpoint, key: VAPIDToken), Refusal> {
        guard let device = push.device, case .webpush(let subscription) = device.address else {
            return .failure(.notWebPush)
        }
        guard let endpoint = WebPushEndpoint(subscription.endpoint), allowList.allows(endpoint) else {
            return .failure(.endpointNotAllowed)
        }
        guard let name = pauseScope(of: push) else { return .failure(.noApp) }
        guard let key = keys[name] else { return .failure(.unknownApp) }
        return .success((endpoint, key))
    }

    /// Sends `push` and says what came of it (never throws: every failure is a ``PushAnswer``).
    public func send(_ push: DevicePush) async -> PushAnswer {
        let endpoint: WebPushEndpoint
        let key: VAPIDToken
        switch route(push) {
        case .success(let routed): (endpoint, key) = routed
        case .failure(let refusal):
            if refusal == .endpointNotAllowed {
                logger.debug(
                    "web push endpoint not allowed: nothing sent", metadata: ["record": "\(push.record.coordinates)"])
            }
            return .final(.rejected, AnswerDetails(reason: refusal.rawValue))
        }
        guard case .webpush(let subscription)? = push.device?.address else {
            return .final(.rejected, AnswerDetails(reason: Refusal.notWebPush.rawValue))
        }
        guard let headers = WebPushRequest.headers(for: push.record) else {
            return .final(.rejected, AnswerDetails(reason: Refusal.invalidHeader.rawValue))
        }
        let body: [UInt8]
        do {
            body = try WebPushEncryption.encrypt(push.record.value, for: subscription)
        } catch {
            return .final(.rejected, AnswerDetails(reason: error.rawValue))
        }
        let token: String
        do {
            token = try key.token(for: endpoint.origin)
        } catch {
            logger.error(
                "cannot sign a VAPID token", metadata: ["error_type": "\(String(reflecting: type(of: error)))"])
            return .credentials(AnswerDetails(reason: "vapid_token_not_signed"))
        }
        let exchange = await http.post(
            url: endpoint.url, headers: [(name: "Authorization", value: key.authorization(token))] + headers,
            body: body)
        if case .failed(let failure) = exchange {
            logger.debug(
                "web push request without an answer",
                metadata: [
                    "record": "\(push.record.coordinates)", "host": "\(endpoint.host)", "reason": "\(failure.reason)",
                    "error_type": "\(failure.errorType)",
                ])
        }
        let answer = WebPushAnswerClassifier.classify(exchange, now: now())
        if case .credentials = answer { key.invalidate(token, origin: endpoint.origin) }
        return answer
    }
}
