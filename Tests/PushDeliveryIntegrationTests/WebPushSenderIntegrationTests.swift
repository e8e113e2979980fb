import Crypto
import Foundation
import Logging
import PushDelivery
import PushModel
import Testing

/// The web push sender against the stand-in push service over HTTP/2 and TLS: the stand-in decrypts every body with
/// its own RFC 8291 code and checks VAPID; every web push row of SPEC 10.6; the allow-list never connects.
struct WebPushSenderIntegrationTests {
    static let value = #"{"web_push":8030,"notification":{"title":"Order shipped","navigate":"https://example.com/o"}}"#

    static func record(
        headers: [(String, String)] = [
            ("pushgate-format", "webpush"), ("webpush-ttl", "3600"), ("webpush-urgency", "high"),
            ("webpush-topic", "order-1"),
        ]
    ) -> DeliveredRecord {
        DeliveredRecord(
            topic: "push.webpush", partition: 0, offset: 5, key: "user-1", value: Array(value.utf8),
            headers: headers.map { (name: $0.0, value: Array($0.1.utf8)) }, timestampMilliseconds: 0,
            format: .webpush)
    }

    static func push(_ subscription: WebPushSubscription, app: String? = nil) -> DevicePush {
        DevicePush(
            record: record(),
            device: Device(id: "browser-1", audience: "user-1", app: app, address: .webpush(subscription)))
    }

    /// Runs `body` with a sender allowing 127.0.0.1 only, trusting the stand-in's CA, then closes the client.
    static func withSender<T>(
        _ standIn: WebPushStandIn, key: P256.Signing.PrivateKey = P256.Signing.PrivateKey(),
        requestTimeout: Duration = .seconds(10), _ body: (WebPushSender) async throws -> T
    ) async throws -> T {
        try await withStandInHTTPClient(caFiles: [standIn.caFile], requestTimeout: requestTimeout) { http in
            let sender = WebPushSender(
                keys: ["site": VAPIDToken(key: key, subject: "mailto:ops@example.com")],
                allowList: WebPushAllowList(adding: [.host("127.0.0.1")]), http: http,
                logger: Logger(label: "webpush-test"))
            return try await body(sender)
        }
    }

    @Test func aDeliveredPushIsDecryptedByThePushServiceAndCarriesVAPID() async throws {
        let standIn = try await WebPushStandIn(paths: ["/p/ok"])
        let key = P256.Signing.PrivateKey()
        let answer = try await Self.withSender(standIn, key: key) { sender in
            let first = await sender.send(Self.push(standIn.subscription("/p/ok")))
            _ = await sender.send(Self.push(standIn.subscription("/p/ok")))
            return first
        }
        guard case .final(.delivered, let details) = answer else {
            Issue.record("not delivered: \(answer)")
            return
        }
        #expect(details.status == 201 && details.reason == "Created")
        #expect(details.location?.hasPrefix("https://127.0.0.1:\(standIn.listeners[0].port)/m/") == true)
        let requests = try standIn.requests("/p/ok")
        try #require(requests.count == 2)
        for request in requests {
            #expect(request.plaintext == Self.value)
            #expect(request.vapid?.aud == "https://127.0.0.1:\(standIn.listeners[0].port)")
            #expect(request.vapid?.sub == "mailto:ops@example.com")
            #expect(request.vapid?.k == Base64URLCoding.encode(Array(key.publicKey.x963Representation)))
            #expect(request.headers?["ttl"] == "3600" && request.headers?["urgency"] == "high")
            #expect(request.headers?["topic"] == "order-1" && request.headers?["content-encoding"] == "aes128gcm")
            #expect(request.bodySize == 86 + Self.value.utf8.count + 17)
        }
        // One token per origin, reused by the second request.
        #expect(requests[0].vapid?.exp == requests[1].vapid?.exp)
    }

    @Test func everyWebPushRowOfTheOutcomeTable() async throws {
        let rows: [(String, WebPushStandIn.Answer, PushAnswer)] = [
            ("/p/202", .init(status: 202), .final(.delivered, AnswerDetails(status: 202, reason: "Accepted"))),
            ("/p/404", .init(status: 404), .final(.gone, AnswerDetails(status: 404, reason: "Not Found"))),
            ("/p/410", .init(status: 410), .final(.gone, AnswerDetails(status: 410, reason: "Gone"))),
            ("/p/400", .init(status: 400), .final(.rejected, AnswerDetails(status: 400, reason: "Bad Request"))),
            ("/p/413", .init(status: 413), .final(.rejected, AnswerDetails(status: 413, reason: "Content Too Large"))),
            (
                "/p/429", .init(status: 429, retryAfter: "9"),
                .transient(AnswerDetails(status: 429, reason: "Too Many Requests"), retryAfter: .seconds(9))
            ),
            (
                "/p/503", .init(status: 503, retryAfter: "4"),
                .transient(AnswerDetails(status: 503, reason: "Service Unavailable"), retryAfter: .seconds(4))
            ),
            (
                "/p/html", .init(status: 502, html: true),
                .transient(AnswerDetails(status: 502, reason: "Bad Gateway"), retryAfter: nil)
            ),
            (
                "/p/401", .init(status: 401, check: false),
                .credentials(AnswerDetails(status: 401, reason: "Unauthorized"))
            ),
            ("/p/403", .init(status: 403, check: false), .credentials(AnswerDetails(status: 403, reason: "Forbidden"))),
        ]
        var answers = Dictionary(uniqueKeysWithValues: rows.map { ($0.0, [$0.1]) })
        answers["/p/reset"] = [.init(action: "reset")]
        answers["/p/silent"] = [.init(action: "no_answer")]
        let standIn = try await WebPushStandIn(paths: rows.map(\.0) + ["/p/reset", "/p/silent"], answers: answers)
        // Rows the stand-in answers get the default (patient) timeout: a loaded machine must not turn them into
        // timeouts. Only the silent row runs on a short one.
        try await Self.withSender(standIn) { sender in
            for (path, _, expected) in rows {
                var answer = await sender.send(Self.push(standIn.subscription(path)))
                if case .final(.delivered, var details) = answer {
                    #expect(details.location?.hasPrefix("https://127.0.0.1:") == true)
                    details.location = nil
                    answer = .final(.delivered, details)
                }
                #expect(answer == expected, "\(path)")
            }
            // A reset stream is an answer lost, retried, whatever kind of failure the client names it.
            let reset = await sender.send(Self.push(standIn.subscription("/p/reset")))
            guard case .transient(let details, nil) = reset else {
                Issue.record("a reset stream is not transient: \(reset)")
                return
            }
            #expect(details.status == nil && details.reason != nil)
        }
        let silent = try await Self.withSender(standIn, requestTimeout: .seconds(1)) { sender in
            await sender.send(Self.push(standIn.subscription("/p/silent")))
        }
        #expect(silent == .transient(AnswerDetails(reason: "timeout"), retryAfter: nil))
    }

    @Test func aRefusedTokenIsReplacedByTheNextRequest() async throws {
        let standIn = try await WebPushStandIn(
            paths: ["/p/auth"], answers: ["/p/auth": [.init(status: 403, check: false)]])
        try await Self.withSender(standIn) { sender in
            #expect(await sender.send(Self.push(standIn.subscription("/p/auth"))).details.status == 403)
            try await Task.sleep(for: .seconds(1.1))  // a new token has a new exp
            #expect(await sender.send(Self.push(standIn.subscription("/p/auth"))).details.status == 201)
        }
        let authorizations = try standIn.requests("/p/auth").compactMap(\.authorization)
        try #require(authorizations.count == 2)
        // The refused token was dropped: the second request carries a new one (same key, a later exp).
        #expect(authorizations[0] != authorizations[1])
        #expect(authorizations[0].hasPrefix("vapid t=ey") && authorizations[1].hasPrefix("vapid t=ey"))
        #expect(authorizations[0].split(separator: "k=").last == authorizations[1].split(separator: "k=").last)
    }

    @Test func endpointsOutsideTheAllowListAreNeverConnected() async throws {
        let standIn = try await WebPushStandIn(
            paths: ["/p/x"], listen: ["127.0.0.1", "127.0.0.2", "[::1]:0", "127.0.0.1:0"])
        try await Self.withSender(standIn) { sender in
            let refused = [
                standIn.subscription("/p/x", listener: 1), standIn.subscription("/p/x", listener: 2),
                standIn.subscription("/p/x", listener: 3, host: "localhost"),
                standIn.subscription("/p/x", listener: 3, host: "127.0.0.1."),
                standIn.subscription("/p/x", listener: 3, host: "0x7f.0.0.1"),
                standIn.subscription("/p/x", listener: 3, host: "user@127.0.0.1"),
            ]
            for subscription in refused {
                #expect(
                    await sender.send(Self.push(subscription))
                        == .final(.rejected, AnswerDetails(reason: "endpoint_not_allowed")), "\(subscription.endpoint)")
            }
            #expect(await sender.send(Self.push(standIn.subscription("/p/x"))).details.status == 201)
        }
        let connections = Set(try standIn.events().filter { $0.event == "connection" }.map(\.listener))
        #expect(connections == ["127.0.0.1:\(standIn.listeners[0].port)"])
    }
}
