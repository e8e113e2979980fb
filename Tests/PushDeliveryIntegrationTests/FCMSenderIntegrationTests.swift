import Crypto
import Foundation
import Logging
import PushDelivery
import PushModel
import PushgateTestSupport
import Testing
import _CryptoExtras

/// The FCM sender against the stand-in FCM and token endpoint over HTTP/2 and TLS: the grant the stand-in verifies,
/// the exact body bytes read back from its log, every FCM row of SPEC 10.6, token refresh and renewal.
@Suite(.timeLimit(.minutes(2)))
struct FCMSenderIntegrationTests {
    static let value =
        #"{"validate_only":false, "message":{"data":{"order":"1234","note":"a \"quoted\" {message}"},"android":{"priority":"HIGH","ttl":"3600s"}}}"#

    static func record(value: String = value) -> DeliveredRecord {
        DeliveredRecord(
            topic: "push.fcm", partition: 0, offset: 11, key: "user-1", value: Array(value.utf8),
            headers: [(name: "pushgate-format", value: Array("fcm".utf8))], timestampMilliseconds: 0, format: .fcm)
    }

    static func device(_ token: String, id: String = "device-1", app: String? = FCMStandIn.projectID) -> Device {
        Device(id: id, audience: "user-1", app: app, address: .fcm(token: token))
    }

    /// Runs `body` with a sender made from the stand-in's service-account file (as `--fcm-credentials` is read),
    /// posting to the stand-in and trusting its CA, then closes the client.
    static func withSender<T>(
        _ standIn: FCMStandIn, requestTimeout: Duration = .seconds(10),
        lines: CapturedLog = CapturedLog(metadata: true),
        _ body: (FCMSender) async throws -> T
    ) async throws -> T {
        try await withStandInHTTPClient(caFiles: [standIn.caFile], requestTimeout: requestTimeout) { http in
            let sender = try FCMSender.make(
                credentialFiles: [standIn.credentialsFile], endpoint: "https://127.0.0.1:\(standIn.port)", http: http,
                logger: Logger(label: "fcm-test") { label in lines.handler(label: label) })
            return try await body(sender)
        }
    }

    @Test func aDeliveredPushCarriesTheTokenFirstAndEveryOtherByteOfTheValue() async throws {
        let standIn = try await FCMStandIn()
        let lines = CapturedLog(metadata: true)
        let (first, second) = try await Self.withSender(standIn, lines: lines) { sender in
            (
                await sender.send(DevicePush(record: Self.record(), device: Self.device("tok-a"))),
                await sender.send(DevicePush(record: Self.record(), device: Self.device("tok-b", app: nil)))
            )
        }
        guard case .final(.delivered, let details) = first else {
            Issue.record("not delivered: \(first)")
            return
        }
        #expect(details.status == 200)
        #expect(details.messageID?.hasPrefix("projects/\(FCMStandIn.projectID)/messages/0:") == true)
        #expect(second.details.status == 200)
        let sends = try standIn.sends(token: "tok-a")
        try #require(sends.count == 1)
        let expected = Self.value.replacingOccurrences(
            of: #""message":{"#, with: #""message":{"token":"tok-a","#)
        #expect(sends[0].bodyBytes == Array(expected.utf8))
        #expect(sends[0].path == "/v1/projects/\(FCMStandIn.projectID)/messages:send")
        #expect(sends[0].headers["content-type"] == "application/json" && sends[0].headers["authorization"] == nil)
        let grants = try standIn.grants()
        #expect(grants.count == 1, "one access token serves both sends")
        #expect(grants.first?.answer.status == 200)
        #expect(try standIn.sends(token: "tok-b").first?.accessTokenDigest == sends[0].accessTokenDigest)
        let logged = lines.text
        #expect(!logged.contains("tok-a") && !logged.contains("ya29."))
        #expect(!logged.contains(try #require(grants.first?.assertion?.split(separator: ".").last)))
    }

    @Test func theGrantsAssertionIsSignedWithTheServiceAccountsKey() async throws {
        let standIn = try await FCMStandIn()
        _ = try await Self.withSender(standIn) {
            await $0.send(DevicePush(record: Self.record(), device: Self.device("t")))
        }
        let assertion = try #require(try standIn.grants().first?.assertion)
        let parts = assertion.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let signature = _RSA.Signing.RSASignature(rawRepresentation: try #require(Base64URLCoding.decode(parts[2])))
        #expect(
            standIn.key.publicKey.isValidSignature(
                signature, for: SHA256.hash(data: Array((parts[0] + "." + parts[1]).utf8)), padding: .insecurePKCS1v1_5)
        )
        let claimBytes = try #require(Base64URLCoding.decode(parts[1]))
        let claims = try #require(JSONSerialization.jsonObject(with: Data(claimBytes)) as? [String: Any])
        #expect(claims["aud"] as? String == standIn.tokenURI)
        #expect(claims["scope"] as? String == FCMGrantAssertion.scope)
    }

    @Test func aValidateOnlyRequestIsValidated() async throws {
        let standIn = try await FCMStandIn()
        let answer = try await Self.withSender(standIn) { sender in
            await sender.send(
                DevicePush(
                    record: Self.record(value: #"{"validate_only":true,"message":{"data":{"a":"b"}}}"#),
                    device: Self.device("dry")))
        }
        #expect(
            answer
                == .final(
                    .validated,
                    AnswerDetails(status: 200, messageID: "projects/\(FCMStandIn.projectID)/messages/fake_message_id")))
    }

    /// Every FCM row of SPEC 10.6, each from its own registration token's scripted answer.
    @Test func everyAnswerIsClassifiedAsTheContractSays() async throws {
        typealias Answer = FCMStandIn.Answer
        let rows: [(String, Answer, PushAnswer)] = [
            (
                "gone", Answer(status: 404, errorCode: "UNREGISTERED"),
                .final(.gone, AnswerDetails(status: 404, reason: "UNREGISTERED"))
            ),
            (
                "invalid", Answer(status: 400, errorCode: "INVALID_ARGUMENT"),
                .final(.rejected, AnswerDetails(status: 400, reason: "INVALID_ARGUMENT"))
            ),
            (
                "mismatch", Answer(status: 403, errorCode: "SENDER_ID_MISMATCH"),
                .final(.rejected, AnswerDetails(status: 403, reason: "SENDER_ID_MISMATCH"))
            ),
            (
                "quota", Answer(status: 429, errorCode: "QUOTA_EXCEEDED", retryAfter: "60"),
                .transient(AnswerDetails(status: 429, reason: "QUOTA_EXCEEDED"), retryAfter: .seconds(60))
            ),
            (
                "unavailable", Answer(status: 503, errorCode: "UNAVAILABLE", retryAfter: "5"),
                .transient(AnswerDetails(status: 503, reason: "UNAVAILABLE"), retryAfter: .seconds(5))
            ),
            (
                "internal", Answer(status: 500, errorCode: "INTERNAL"),
                .transient(AnswerDetails(status: 500, reason: "INTERNAL"), retryAfter: nil)
            ),
            (
                "thirdparty", Answer(status: 401, errorCode: "THIRD_PARTY_AUTH_ERROR"),
                .credentials(AnswerDetails(status: 401, reason: "THIRD_PARTY_AUTH_ERROR"))
            ),
            (
                "denied", Answer(status: 403), .credentials(AnswerDetails(status: 403, reason: "PERMISSION_DENIED"))
            ),
            (
                "html", Answer(status: 502, html: true),
                .transient(AnswerDetails(status: 502, reason: "answer_not_json"), retryAfter: nil)
            ),
        ]
        let standIn = try await FCMStandIn(answers: Dictionary(uniqueKeysWithValues: rows.map { ($0.0, [$0.1]) }))
        let answers = try await Self.withSender(standIn) { sender in
            var answers: [PushAnswer] = []
            for row in rows {
                answers.append(await sender.send(DevicePush(record: Self.record(), device: Self.device(row.0))))
            }
            return answers
        }
        for (row, answer) in zip(rows, answers) { #expect(answer == row.2, "\(row.0)") }
        // THIRD_PARTY_AUTH_ERROR is about the project's APNs or web push credentials, not the access token.
        #expect(try standIn.sends(token: "thirdparty").count == 1 && standIn.grants().count == 1)
    }

    @Test func a401MakesOneNewAccessTokenAndSendsAgain() async throws {
        let standIn = try await FCMStandIn(answers: [
            "renewed": [.init(status: 401, revoke: true)],
            "refused": [.init(status: 401, revoke: true), .init(status: 401, revoke: true)],
        ])
        let (renewed, refused) = try await Self.withSender(standIn) { sender in
            (
                await sender.send(DevicePush(record: Self.record(), device: Self.device("renewed"))),
                await sender.send(DevicePush(record: Self.record(), device: Self.device("refused")))
            )
        }
        #expect(renewed.details.status == 200)
        let sends = try standIn.sends(token: "renewed")
        try #require(sends.map(\.answer.status) == [401, 200])
        #expect(sends[0].accessTokenDigest != sends[1].accessTokenDigest)
        #expect(refused == .credentials(AnswerDetails(status: 401, reason: "UNAUTHENTICATED")))
        #expect(try standIn.sends(token: "refused").count == 2, "renewed once, not again")
        #expect(try standIn.grants().count == 3)
    }

    @Test func aShortLivedAccessTokenIsReplacedBeforeItExpires() async throws {
        let standIn = try await FCMStandIn(arguments: ["--token-lifetime", "2"])
        let answers = try await Self.withSender(standIn) { sender in
            let first = await sender.send(DevicePush(record: Self.record(), device: Self.device("short")))
            try await Task.sleep(for: .milliseconds(1200))
            let second = await sender.send(DevicePush(record: Self.record(), device: Self.device("short")))
            return [first, second]
        }
        #expect(answers.map(\.details.status) == [200, 200])
        let sends = try standIn.sends(token: "short")
        try #require(sends.map(\.answer.status) == [200, 200], "no 401: the token was replaced before it expired")
        #expect(try sends[0].accessTokenDigest != sends[1].accessTokenDigest && standIn.grants().count == 2)
    }

    @Test func aRefusedGrantIsACredentialsAnswerAndNoSendIsMade() async throws {
        let standIn = try await FCMStandIn(
            grants: [.init(status: 503, retryAfter: "3")], arguments: ["--refuse-grants-for", "60"])
        let answers = try await Self.withSender(standIn) { sender in
            [
                await sender.send(DevicePush(record: Self.record(), device: Self.device("g"))),
                await sender.send(DevicePush(record: Self.record(), device: Self.device("g"))),
            ]
        }
        // The scripted 503 is for a valid grant: the outage (--refuse-grants-for) refuses before it.
        #expect(
            answers == Array(repeating: .credentials(AnswerDetails(status: 400, reason: "grant_refused")), count: 2))
        #expect(try standIn.sends(token: "g").isEmpty && standIn.grants().count == 2)
    }

    @Test func anUnavailableTokenEndpointIsTransient() async throws {
        let standIn = try await FCMStandIn(grants: [.init(status: 503, retryAfter: "3")])
        let answer = try await Self.withSender(standIn) { sender in
            await sender.send(DevicePush(record: Self.record(), device: Self.device("u")))
        }
        #expect(answer == .transient(AnswerDetails(status: 503, reason: "grant_unavailable"), retryAfter: .seconds(3)))
    }

    @Test func concurrentSendsShareOneGrantAndNoAnswerIsATimeout() async throws {
        let standIn = try await FCMStandIn(answers: ["mute": [.init(action: "no_answer")]])
        let answers = try await Self.withSender(standIn, requestTimeout: .seconds(4)) { sender in
            await withTaskGroup(of: PushAnswer.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        await sender.send(DevicePush(record: Self.record(), device: Self.device("many-\(index)")))
                    }
                }
                group.addTask { await sender.send(DevicePush(record: Self.record(), device: Self.device("mute"))) }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(answers.filter { $0.details.status == 200 }.count == 20)
        #expect(answers.contains(.transient(AnswerDetails(reason: "timeout"), retryAfter: nil)))
        #expect(try standIn.grants().count == 1)
    }
}
