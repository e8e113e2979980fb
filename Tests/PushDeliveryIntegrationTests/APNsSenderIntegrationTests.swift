import Crypto
import Foundation
import Logging
import PushDelivery
import PushModel
import Testing

/// The APNs sender against the stand-in APNs over HTTP/2 and TLS (its test CA passed as `--ca-file` would):
/// requests read back from the stand-in's log, and every row of SPEC 10.6's APNs classification.
struct APNsSenderIntegrationTests {
    static let token = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"

    static func record(
        value: String = #"{"aps":{"alert":{"title":"Order shipped","body":"On its way"}}}"#,
        headers: [(String, String)] = [
            ("pushgate-id", "p-1"), ("pushgate-format", "apns"), ("pushgate-source", "push.unified:0:42"),
            ("apns-push-type", "alert"), ("apns-priority", "10"), ("apns-expiration", "1900000000"),
            ("apns-collapse-id", "order-1234"),
        ]
    ) -> DeliveredRecord {
        DeliveredRecord(
            topic: "push.apns", partition: 0, offset: 7, key: "user-1", value: Array(value.utf8),
            headers: headers.map { (name: $0.0, value: Array($0.1.utf8)) }, timestampMilliseconds: 0, format: .apns)
    }

    static func device(
        _ token: String = token, id: String = "device-1", environment: APNsEnvironment = .production,
        app: String? = APNsStandIn.bundleID
    ) -> Device {
        Device(id: id, audience: "user-1", app: app, address: .apns(token: token, environment: environment))
    }

    /// Runs `body` with a sender posting to `standIn` (trusting its CA unless `trustCA` is false), then closes the
    /// client.
    static func withSender<T>(
        _ standIn: APNsStandIn, key: P256.Signing.PrivateKey? = nil, teamID: String = APNsStandIn.teamID,
        requestTimeout: Duration = .seconds(10), trustCA: Bool = true, productionPort: Int? = nil,
        logger: Logger = Logger(label: "apns-test"), _ body: (APNsSender) async throws -> T
    ) async throws -> T {
        let configuration = try APNsConfiguration(
            keyID: APNsStandIn.keyID, teamID: teamID, bundleID: APNsStandIn.bundleID,
            productionEndpoint: APNsEndpoint(
                "https://127.0.0.1:\(productionPort ?? standIn.productionPort)", option: "--apns-endpoint"),
            sandboxEndpoint: APNsEndpoint(
                "https://localhost:\(standIn.sandboxPort)/", option: "--apns-sandbox-endpoint"))
        let signingKey = try key ?? APNsSigningKey.load(path: standIn.keyFile)
        return try await withStandInHTTPClient(
            caFiles: trustCA ? [standIn.caFile] : [], requestTimeout: requestTimeout
        ) { http in
            let sender = APNsSender(
                configuration: configuration,
                providerToken: APNsProviderToken(key: signingKey, keyID: APNsStandIn.keyID, teamID: teamID),
                http: http, logger: logger)
            return try await body(sender)
        }
    }

    @Test func aDeliveredPushCarriesEveryHeaderOfTheContract() async throws {
        let standIn = try await APNsStandIn()
        let record = Self.record()
        let answer = try await Self.withSender(standIn) { sender in
            let first = await sender.send(DevicePush(record: record, device: Self.device()))
            _ = await sender.send(DevicePush(record: record, device: Self.device(id: "device-2")))
            return first
        }
        let apnsID = APNsMessageID.make(for: record, deviceID: "device-1")
        #expect(answer == .final(.delivered, AnswerDetails(status: 200, apnsID: apnsID)))
        let requests = try standIn.requests(token: Self.token)
        try #require(requests.count == 2)
        let request = requests[0]
        #expect(request.method == "POST" && request.environment == "production")
        #expect(request.headers["apns-topic"] == APNsStandIn.bundleID)
        #expect(request.headers["apns-push-type"] == "alert")
        #expect(request.headers["apns-priority"] == "10")
        #expect(request.headers["apns-expiration"] == "1900000000")
        #expect(request.headers["apns-collapse-id"] == "order-1234")
        #expect(request.headers["apns-id"] == apnsID)
        #expect(requests[1].headers["apns-id"] == APNsMessageID.make(for: record, deviceID: "device-2"))
        #expect(request.headers["authorization"] == nil)
        #expect(
            request.jwt?.alg == "ES256" && request.jwt?.kid == APNsStandIn.keyID
                && request.jwt?.iss == APNsStandIn.teamID)
        #expect(request.body == String(decoding: record.value, as: UTF8.self))
        #expect(request.answer.status == 200)
        #expect(requests[1].connection == request.connection, "the second push reuses the open connection")
        #expect(requests[1].jwt?.digest == request.jwt?.digest, "the provider token is reused")
    }

    @Test func aLiveActivityGoesToItsTopicAndADevelopmentDeviceToTheSandbox() async throws {
        let development = String(repeating: "d1", count: 32)
        let standIn = try await APNsStandIn(environments: [development: "development"])
        let live = Self.record(
            value: #"{"aps":{"timestamp":1795894286,"event":"update","content-state":{"home":2}}}"#,
            headers: [
                ("apns-push-type", "liveactivity"), ("apns-priority", "5"), ("pushgate-source", "push.unified:0:9"),
            ])
        let (liveAnswer, sandboxAnswer, wrongEnvironment) = try await Self.withSender(standIn) { sender in
            (
                await sender.send(DevicePush(record: live, device: Self.device())),
                await sender.send(
                    DevicePush(record: Self.record(), device: Self.device(development, environment: .development))),
                await sender.send(
                    DevicePush(record: Self.record(), device: Self.device(development, environment: .production)))
            )
        }
        #expect(liveAnswer.details.status == 200)
        #expect(
            try standIn.requests(token: Self.token).first?.headers["apns-topic"]
                == "com.example.shop.push-type.liveactivity")
        #expect(sandboxAnswer.details.status == 200)
        let requests = try standIn.requests(token: development)
        #expect(requests.map(\.environment) == ["sandbox", "production"])
        #expect(
            wrongEnvironment
                == .final(
                    .gone, AnswerDetails(status: 400, reason: "BadDeviceToken", apnsID: wrongEnvironment.details.apnsID)
                ))
    }

    @Test func aBroadcastIsPostedToTheBundlesBroadcastPath() async throws {
        let standIn = try await APNsStandIn()
        let record = Self.record(
            value: #"{"aps":{"timestamp":1795894286,"event":"update","content-state":{"home":2}}}"#,
            headers: [
                ("apns-push-type", "liveactivity"), ("apns-channel-id", "dHN0LXNyY2gtY2hubA=="),
                ("apns-priority", "10"),
                ("apns-expiration", "0"),
            ])
        let answer = try await Self.withSender(standIn) { await $0.send(DevicePush(record: record, device: nil)) }
        #expect(answer.details.status == 200)
        guard case .final(.delivered, let details) = answer else {
            Issue.record("not delivered: \(answer)")
            return
        }
        let request = try #require(try standIn.requests().first)
        #expect(request.path == "/4/broadcasts/apps/\(APNsStandIn.bundleID)" && request.environment == "production")
        #expect(request.headers["apns-channel-id"] == "dHN0LXNyY2gtY2hubA==")
        #expect(request.headers["apns-expiration"] == "0" && request.headers["apns-priority"] == "10")
        #expect(request.headers["apns-topic"] == nil && request.headers["apns-id"] == nil)
        #expect(details.apnsID != nil, "the answer's apns-request-id")
    }

    /// Every APNs row of SPEC 10.6, each from its own device token's scripted answer.
    @Test func everyAnswerIsClassifiedAsTheContractSays() async throws {
        typealias Answer = APNsStandIn.Answer
        let rows: [(Answer, PushAnswer)] = [
            (
                Answer(status: 410, reason: "Unregistered", timestamp: 1_700_000_000_123),
                .final(.gone, AnswerDetails(status: 410, reason: "Unregistered", goneSince: 1_700_000_000_123))
            ),
            (
                Answer(status: 410, reason: "ExpiredToken"),
                .final(.gone, AnswerDetails(status: 410, reason: "ExpiredToken"))
            ),
            (
                Answer(status: 400, reason: "BadDeviceToken"),
                .final(.gone, AnswerDetails(status: 400, reason: "BadDeviceToken"))
            ),
            (
                Answer(status: 400, reason: "BadTopic"),
                .final(.rejected, AnswerDetails(status: 400, reason: "BadTopic"))
            ),
            (
                Answer(status: 400, reason: "DeviceTokenNotForTopic"),
                .final(.rejected, AnswerDetails(status: 400, reason: "DeviceTokenNotForTopic"))
            ),
            (Answer(status: 404, reason: "BadPath"), .final(.rejected, AnswerDetails(status: 404, reason: "BadPath"))),
            (
                Answer(status: 405, reason: "MethodNotAllowed"),
                .final(.rejected, AnswerDetails(status: 405, reason: "MethodNotAllowed"))
            ),
            (
                Answer(status: 413, reason: "PayloadTooLarge"),
                .final(.rejected, AnswerDetails(status: 413, reason: "PayloadTooLarge"))
            ),
            (
                Answer(status: 403, reason: "InvalidProviderToken"),
                .credentials(AnswerDetails(status: 403, reason: "InvalidProviderToken"))
            ),
            (Answer(status: 403, reason: "Forbidden"), .credentials(AnswerDetails(status: 403, reason: "Forbidden"))),
            (
                Answer(status: 429, reason: "TooManyRequests", retryAfter: "3"),
                .transient(AnswerDetails(status: 429, reason: "TooManyRequests"), retryAfter: .seconds(3))
            ),
            (
                Answer(status: 500, reason: "InternalServerError"),
                .transient(AnswerDetails(status: 500, reason: "InternalServerError"), retryAfter: nil)
            ),
            (
                Answer(status: 502, action: "garbage"),
                .transient(AnswerDetails(status: 502, reason: "answer_not_json"), retryAfter: nil)
            ),
            (
                Answer(status: 503, reason: "ServiceUnavailable", retryAfter: "120"),
                .transient(AnswerDetails(status: 503, reason: "ServiceUnavailable"), retryAfter: .seconds(120))
            ),
            (
                Answer(status: 503, reason: "Shutdown"),
                .transient(AnswerDetails(status: 503, reason: "Shutdown"), retryAfter: nil)
            ),
            (Answer(status: 504, body: ""), .transient(AnswerDetails(status: 504), retryAfter: nil)),
            (
                Answer(status: 400, action: "garbage"),
                .final(.rejected, AnswerDetails(status: 400, reason: "answer_not_json"))
            ),
            (
                Answer(status: 410, body: "gone, but not JSON"),
                .final(.gone, AnswerDetails(status: 410, reason: "answer_not_json"))
            ),
        ]
        let tokens = rows.indices.map { String(format: "%064x", 0xA000 + $0) }
        let standIn = try await APNsStandIn(answers: Dictionary(uniqueKeysWithValues: zip(tokens, rows.map { [$0.0] })))
        let answers = try await Self.withSender(standIn) { sender in
            var answers: [PushAnswer] = []
            for (index, token) in tokens.enumerated() {
                answers.append(
                    await sender.send(DevicePush(record: Self.record(), device: Self.device(token, id: "d\(index)"))))
            }
            return answers
        }
        for (index, token) in tokens.enumerated() {
            let apnsID = APNsMessageID.make(for: Self.record(), deviceID: "d\(index)")
            var expected = rows[index].1
            switch expected {
            case .final(let outcome, var details):
                details.apnsID = apnsID
                expected = .final(outcome, details)
            case .transient(var details, let retryAfter):
                details.apnsID = apnsID
                expected = .transient(details, retryAfter: retryAfter)
            case .credentials(var details):
                details.apnsID = apnsID
                expected = .credentials(details)
            }
            #expect(answers[index] == expected, "row \(index)")
            #expect(try standIn.requests(token: token).count == 1, "one request for row \(index)")
        }
    }

    @Test func theStandInsOwnChecksReachTheSenderAsRejections() async throws {
        let standIn = try await APNsStandIn()
        let noPushType = Self.record(headers: [("apns-priority", "10")])
        let tooLarge = Self.record(value: #"{"aps":{"alert":""# + String(repeating: "x", count: 4100) + #""}}"#)
        let (first, second) = try await Self.withSender(standIn) { sender in
            (
                await sender.send(DevicePush(record: noPushType, device: Self.device())),
                await sender.send(DevicePush(record: tooLarge, device: Self.device()))
            )
        }
        #expect(first.details.reason == "InvalidPushType" && first.details.status == 400)
        #expect(second.details.reason == "PayloadTooLarge" && second.details.status == 413)
        guard case .final(.rejected, _) = first, case .final(.rejected, _) = second else {
            Issue.record("not rejected: \(first), \(second)")
            return
        }
    }
}
