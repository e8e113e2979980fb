import BenchProcess
import Foundation
import PushgateKafka

/// The keys and headers the fixture script made for the run (`delivery_fixture.py`: fixture.json).
struct Fixture {
    let directory: String
    let apnsKeyID: String
    let apnsTeamID: String
    let p256dh: String
    let auth: String
    let apnsAuthorization: String
    let vapidAuthorization: String

    static let bundleID = "com.example.bench"
    static let vapidSubject = "mailto:bench@example.com"

    init(directory: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/fixture.json"))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BenchmarkError("fixture.json is not an object")
        }
        func text(_ name: String) throws -> String {
            guard let value = object[name] as? String else { throw BenchmarkError("fixture.json has no \(name)") }
            return value
        }
        self.directory = directory
        apnsKeyID = try text("apns_key_id")
        apnsTeamID = try text("apns_team_id")
        p256dh = try text("p256dh")
        auth = try text("auth")
        apnsAuthorization = try text("apns_authorization")
        vapidAuthorization = try text("vapid_authorization")
    }
}

/// One platform's share of the run: its devices (`audiences` × `devicesPerRecord`), its records (each keyed by an
/// audience, so sent to `devicesPerRecord` devices), and the requests h2load sends in their place.
struct Workload: Sendable {
    let platform: String
    let records: Int
    let devicesPerRecord: Int
    let audiences: Int
    let nginxPort: Int

    /// The delivered topic (SPEC section 1 names).
    var topic: String { "push.\(platform)" }
    /// Requests a whole run of the records makes.
    var sends: Int { records * devicesPerRecord }
    var origin: String { "https://127.0.0.1:\(nginxPort)" }

    /// The record's value: a typical notification in the format of `pushgate run`'s output.
    var value: String {
        switch platform {
        case "apns":
            return #"{"aps":{"alert":{"title":"Order shipped","body":"Order 1234 is on its way to you"},"#
                + #""sound":"default","thread-id":"orders"},"order_id":"1234"}"#
        case "fcm":
            return #"{"message":{"notification":{"title":"Order shipped","body":"Order 1234 is on its way to you"},"#
                + #""android":{"priority":"HIGH","ttl":"86400s","notification":{"channel_id":"orders"}},"#
                + #""data":{"order_id":"1234"}}}"#
        default:
            return #"{"web_push":8030,"notification":{"title":"Order shipped","body":"Order 1234 is on its way "#
                + #"to you","navigate":"https://shop.example.com/orders/1234","lang":"en"}}"#
        }
    }

    func audience(_ number: Int) -> String { "\(platform)-user-\(number % audiences)" }

    /// The APNs token of a device: 32 bytes in hex.
    func apnsToken(_ id: String) -> String {
        let digits = Array(id.utf8).map { String($0, radix: 16) }.joined()
        return String((digits + String(repeating: "0", count: 64)).prefix(64))
    }

    /// The directory's lines for `pushgate devices put`.
    func deviceLines(_ fixture: Fixture) -> [String] {
        (0..<audiences).flatMap { audienceNumber in
            (0..<devicesPerRecord).map { index -> String in
                let id = "\(platform)-\(audienceNumber)-\(index)"
                let head = #"{"id":"\#(id)","audience":"\#(audience(audienceNumber))","platform":"\#(platform)""#
                switch platform {
                case "apns":
                    return head + #","app":"\#(Fixture.bundleID)","apns":{"token":"\#(apnsToken(id))"}}"#
                case "fcm":
                    let token = "\(id):APA91b" + String(repeating: "x", count: 140)
                    return head + #","fcm":{"token":"\#(token)"}}"#
                default:
                    return head
                        + #","webpush":{"subscription":{"endpoint":"\#(origin)/push/\#(id)","keys":{"p256dh":"#
                        + #""\#(fixture.p256dh)","auth":"\#(fixture.auth)"}}}}"#
                }
            }
        }
    }

    /// Record `number` as `pushgate run` writes it, stamped `timestampMs`; `tagged` adds the latency tag
    /// (`apns-collapse-id` or `webpush-topic`: `t` and the timestamp) that nginx logs.
    func record(_ number: Int, timestampMs: Int64, tagged: Bool) -> KafkaProducerMessage {
        var headers: [(String, String)] = [
            ("pushgate-format", platform), ("pushgate-source", "push.unified:0:\(number)"),
            ("pushgate-id", "bench-\(number)"),
        ]
        switch platform {
        case "apns":
            headers += [
                ("apns-push-type", "alert"), ("apns-priority", "10"),
                ("apns-expiration", String(timestampMs / 1000 + 86_400)),
            ]
            if tagged { headers.append(("apns-collapse-id", "t\(timestampMs)")) }
        case "webpush":
            headers += [("webpush-ttl", "86400"), ("webpush-urgency", "normal")]
            if tagged { headers.append(("webpush-topic", "t\(timestampMs)")) }
        default:
            break
        }
        return KafkaProducerMessage(
            topic: topic, key: Array(audience(number).utf8), value: Array(value.utf8),
            headers: headers.map { KafkaHeader(name: $0.0, value: Array($0.1.utf8)) }, timestampMs: timestampMs)
    }

    /// Whether nginx can see a record's time in its requests (FCM's requests carry it in the body only, which
    /// `return` never reads).
    var hasLatencyTag: Bool { platform != "fcm" }

    /// h2load's arguments but `-n`, `-c`, `-m`: the headers and body of one of the platform's requests, as
    /// deliver sends them, to the same nginx.
    func h2loadArguments(_ fixture: Fixture) throws -> [String] {
        let headers: [String]
        let body: String
        let path: String
        switch platform {
        case "apns":
            headers = [
                "authorization: \(fixture.apnsAuthorization)", "apns-topic: \(Fixture.bundleID)",
                "apns-push-type: alert", "apns-priority: 10", "apns-expiration: 1999999999",
                "apns-id: 5f0e9d1c-6d27-5d0b-9a3e-0c1d2e3f4a5b",
            ]
            body = "apns-body.json"
            try Data(value.utf8).write(to: URL(fileURLWithPath: "\(fixture.directory)/\(body)"))
            path = "/3/device/\(apnsToken("\(platform)-0-0"))"
        case "fcm":
            headers = ["authorization: Bearer bench-access-token", "content-type: application/json"]
            body = "fcm-body.json"
            let token = "\(platform)-0-0:APA91b" + String(repeating: "x", count: 140)
            let withToken = value.replacingOccurrences(
                of: #"{"message":{"#, with: #"{"message":{"token":"\#(token)","#)
            try Data(withToken.utf8).write(to: URL(fileURLWithPath: "\(fixture.directory)/\(body)"))
            path = "/v1/projects/bench-project/messages:send"
        default:
            headers = [
                "ttl: 86400", "urgency: normal", "content-encoding: aes128gcm",
                "content-type: application/octet-stream", "authorization: \(fixture.vapidAuthorization)",
            ]
            body = "webpush-body.bin"
            path = "/push/\(platform)-0-0"
        }
        return headers.flatMap { ["-H", $0] } + ["-d", "\(fixture.directory)/\(body)", origin + path]
    }
}
