import Foundation
import Logging

/// Posts pushes to APNs (SPEC 10.3) over the shared HTTP client and classifies the answers (10.6).
///
/// One call makes one request; when APNs answers 403 `ExpiredProviderToken` it makes a new provider token at once
/// and sends the same request again, once. Nothing it logs names a device token, a key or a provider token.
public struct APNsSender: PushSender {
    /// Always ``Platform/apns``.
    public var platform: Platform { .apns }

    /// Where and as whom it posts.
    public let configuration: APNsConfiguration
    private let providerToken: APNsProviderToken
    private let http: PushHTTPClient
    private let logger: Logger
    private let now: @Sendable () -> Int64

    /// Creates a sender that signs with `providerToken` and posts with `http` (shared with the other senders);
    /// `now` gives the seconds since 1970 that an HTTP-date `Retry-After` is counted from.
    public init(
        configuration: APNsConfiguration, providerToken: APNsProviderToken, http: PushHTTPClient, logger: Logger,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.configuration = configuration
        self.providerToken = providerToken
        self.http = http
        self.logger = logger
        self.now = now
    }

    /// Sends `push` and says what came of it (never throws: every failure is a ``PushAnswer``).
    public func send(_ push: DevicePush) async -> PushAnswer {
        let request: APNsRequest
        switch APNsRequest.make(for: push, configuration: configuration) {
        case .success(let made): request = made
        case .failure(let refusal): return .final(.rejected, AnswerDetails(reason: refusal.rawValue))
        }
        let token: String
        do {
            token = try providerToken.current()
        } catch {
            return signingFailed(error, apnsID: request.apnsID)
        }
        var exchange = await post(request, token: token)
        if case .answered(let answer) = exchange, APNsAnswerClassifier.asksForNewToken(answer) {
            logger.debug(
                "APNs refused the provider token as expired: sending the request again with a new one",
                metadata: ["record": "\(push.record.coordinates)"])
            let renewed: String
            do {
                renewed = try providerToken.renew(replacing: token)
            } catch {
                return signingFailed(error, apnsID: request.apnsID)
            }
            exchange = await post(request, token: renewed)
        }
        if case .failed(let failure) = exchange {
            logger.debug(
                "APNs request without an answer",
                metadata: [
                    "record": "\(push.record.coordinates)", "reason": "\(failure.reason)",
                    "error_type": "\(failure.errorType)",
                ])
        }
        return APNsAnswerClassifier.classify(exchange, apnsID: request.apnsID, now: now())
    }

    private func post(_ request: APNsRequest, token: String) async -> HTTPExchange {
        await http.post(
            url: request.url, headers: [(name: "authorization", value: "bearer " + token)] + request.headers,
            body: request.body)
    }

    private func signingFailed(_ error: any Error, apnsID: String?) -> PushAnswer {
        logger.error(
            "cannot sign an APNs provider token", metadata: ["error_type": "\(String(reflecting: type(of: error)))"])
        return .credentials(AnswerDetails(reason: "provider_token_not_signed", apnsID: apnsID))
    }
}
