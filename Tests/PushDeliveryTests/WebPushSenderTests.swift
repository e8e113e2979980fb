import Crypto
import Foundation
import Logging
import PushDelivery
import PushModel
import Synchronization
import Testing

/// The web push sender without a push service: where a push goes and with which key, the headers of SPEC 10.5,
/// what is refused before any request, and the options it is made from.
struct WebPushSenderTests {
    static let p256dh =
        Base64URLCoding.decode(
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4") ?? []

    static func record(headers: [(String, String)] = [("webpush-ttl", "3600"), ("webpush-urgency", "high")])
        -> DeliveredRecord
    {
        DeliveredRecord(
            topic: "push.webpush", partition: 0, offset: 3, key: "user-1", value: Array(#"{"web_push":8030}"#.utf8),
            headers: headers.map { (name: $0.0, value: Array($0.1.utf8)) }, timestampMilliseconds: 0,
            format: .webpush)
    }

    static func push(endpoint: String, app: String? = nil, headers: [(String, String)]? = nil) -> DevicePush {
        DevicePush(
            record: headers.map { record(headers: $0) } ?? record(),
            device: Device(
                id: "browser-1", audience: "user-1", app: app,
                address: .webpush(WebPushSubscription(endpoint: endpoint, p256dh: p256dh, auth: Array(0..<16)))))
    }

    func withSender<T>(
        keys names: [String] = ["site"], allowing hosts: [WebPushAllowList.Rule] = [],
        _ body: (WebPushSender) async throws -> T
    ) async throws -> T {
        let http = try PushHTTPClient(configuration: PushHTTPConfiguration())
        var keys: [String: VAPIDToken] = [:]
        for name in names { keys[name] = VAPIDToken(key: P256.Signing.PrivateKey(), subject: "mailto:a@example.com") }
        let sender = WebPushSender(
            keys: keys, allowList: WebPushAllowList(adding: hosts), http: http, logger: Logger(label: "test"))
        do {
            let result = try await body(sender)
            await http.shutdown()
            return result
        } catch {
            await http.shutdown()
            throw error
        }
    }

    @Test func anEndpointOutsideTheAllowListIsRejectedWithoutARequest() async throws {
        try await withSender { sender in
            for endpoint in [
                "https://169.254.169.254/latest/meta-data", "https://127.0.0.1:1/p", "http://web.push.apple.com/p",
                "https://web.push.apple.com@127.0.0.1:1/p",
            ] {
                #expect(
                    await sender.send(Self.push(endpoint: endpoint))
                        == .final(.rejected, AnswerDetails(reason: "endpoint_not_allowed")))
            }
        }
    }

    @Test func theDevicesAppNamesItsKeyElseTheOnlyKey() async throws {
        try await withSender(keys: ["site"]) { sender in
            let endpoint = "https://web.push.apple.com/p"
            guard case .success(let only) = sender.route(Self.push(endpoint: endpoint)) else {
                Issue.record("not routed")
                return
            }
            #expect(only.key === sender.keys["site"])
            #expect(only.endpoint.origin == "https://web.push.apple.com")
            #expect(sender.route(Self.push(endpoint: endpoint, app: "other")).failure == .unknownApp)
            // A refusal pauses the key used, whether the device names it or not.
            #expect(sender.pauseScope(of: Self.push(endpoint: endpoint)) == "site")
            #expect(sender.pauseScope(of: Self.push(endpoint: endpoint, app: "site")) == "site")
        }
        try await withSender(keys: ["a", "b"]) { sender in
            let endpoint = "https://web.push.apple.com/p"
            guard case .success(let named) = sender.route(Self.push(endpoint: endpoint, app: "b")) else {
                Issue.record("not routed")
                return
            }
            #expect(named.key === sender.keys["b"])
            #expect(sender.route(Self.push(endpoint: endpoint)).failure == .noApp)
            #expect(
                await sender.send(Self.push(endpoint: endpoint, app: "c"))
                    == .final(.rejected, AnswerDetails(reason: "unknown_app")))
        }
    }

    @Test func theAllowListIsCheckedBeforeTheKey() async throws {
        try await withSender(keys: ["a", "b"]) { sender in
            #expect(sender.route(Self.push(endpoint: "https://10.0.0.1/p", app: "c")).failure == .endpointNotAllowed)
        }
    }

    @Test func headersAreTTLUrgencyTopicThenTheEncoding() {
        let headers = WebPushRequest.headers(
            for: Self.record(headers: [
                ("webpush-topic", "order-1"), ("webpush-urgency", "low"), ("webpush-ttl", "60"), ("pushgate-id", "x"),
            ]))
        #expect(
            headers?.map { "\($0.name): \($0.value)" } == [
                "TTL: 60", "Urgency: low", "Topic: order-1", "Content-Encoding: aes128gcm",
                "Content-Type: application/octet-stream",
            ])
        #expect(WebPushRequest.headers(for: Self.record(headers: []))?.count == 2)
        #expect(WebPushRequest.headers(for: Self.record(headers: [("webpush-topic", "a\nb")])) == nil)
    }

    @Test func aBadHeaderIsRejected() async throws {
        try await withSender { sender in
            #expect(
                await sender.send(
                    Self.push(endpoint: "https://web.push.apple.com/p", headers: [("webpush-ttl", "1\r\nX: y")]))
                    == .final(.rejected, AnswerDetails(reason: "invalid_header")))
        }
    }

    @Test func optionsAreCheckedAndNamed() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vapid-\(UUID().uuidString).pem").path
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let http = try PushHTTPClient(configuration: PushHTTPConfiguration())
        let logger = Logger(label: "test")
        let made = try? WebPushSender.make(
            keyFiles: ["site": path], subject: "mailto:a@example.com", allowedHosts: ["127.0.0.1", "*.example.com"],
            http: http, logger: logger)
        #expect(made?.keys.keys.sorted() == ["site"])
        #expect(made?.allowList.rules.suffix(2) == [.host("127.0.0.1"), .domainAndSubdomains("example.com")])
        var errors: [String] = []
        for (keys, subject, hosts) in [
            ([:], "mailto:a@example.com", []), (["site": path], nil, []), (["site": path], "a@example.com", []),
            (["site": path], "mailto:a@example.com", ["https://x"]), (["site": "/nonexistent"], "mailto:a@b.c", []),
        ] as [([String: String], String?, [String])] {
            do {
                _ = try WebPushSender.make(
                    keyFiles: keys, subject: subject, allowedHosts: hosts, http: http, logger: logger)
                errors.append("none")
            } catch {
                errors.append(error.option)
            }
        }
        await http.shutdown()
        #expect(
            errors == ["--vapid-key", "--vapid-subject", "--vapid-subject", "--webpush-allow-host", "--vapid-key site"])
    }
}

extension Result {
    fileprivate var failure: Failure? {
        guard case .failure(let failure) = self else { return nil }
        return failure
    }
}

/// The worker pauses what the sender names: the VAPID key a push is signed with (SPEC 10.6), also for a device that
/// leaves `app` out.
struct WebPushPauseScopeTests {
    /// Refuses its first push's credentials, then delivers; notes what is paused at each call.
    final class RefusingOnceSender: PushSender {
        let platform = Platform.webpush
        let pauses: CredentialPauses
        let seen = Mutex<[[PauseKey]]>([])

        init(pauses: CredentialPauses) { self.pauses = pauses }

        func pauseScope(of push: DevicePush) -> String? { push.device?.app ?? "site" }

        func send(_ push: DevicePush) async -> PushAnswer {
            let calls = seen.withLock { seen in
                seen.append(pauses.paused)
                return seen.count
            }
            return calls == 1
                ? .credentials(AnswerDetails(status: 403, reason: "Forbidden"))
                : .final(.delivered, AnswerDetails(status: 201, reason: "Created"))
        }
    }

    @Test func aRefusalPausesTheKeyTheSenderNames() async throws {
        let pauses = CredentialPauses(policy: WorkerFixtures.fastPolicy, logger: Logger(label: "test"))
        let sender = RefusingOnceSender(pauses: pauses)
        let device = Device(
            id: "w1", audience: "user-1", app: nil,
            address: .webpush(
                WebPushSubscription(
                    endpoint: "https://web.push.apple.com/p", p256dh: WebPushSenderTests.p256dh, auth: Array(0..<16))))
        let receipts = InMemoryReceipts()
        #expect(
            try await WorkerFixtures.delivery(
                senders: [sender], directory: InMemoryDirectory([device]), receipts: receipts, pauses: pauses
            ).deliver(WorkerFixtures.record(format: .webpush)))
        #expect(sender.seen.withLock { $0 } == [[], [PauseKey(platform: .webpush, scope: "site")]])
        #expect(receipts.receipts.first?.outcome == .delivered && receipts.receipts.first?.attempts == 2)
        #expect(pauses.paused.isEmpty)
    }
}
