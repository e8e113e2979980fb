import Crypto
import Foundation
import PushDelivery
import Synchronization

/// The stand-in push service (`Tests/Integration/standins/webpush_standin.py`) run as a subprocess for one test: its
/// own test CA, one listener per loopback address asked for, subscriptions made for the test (it decrypts with their
/// private keys by its own RFC 8291 code), scripted answers per endpoint path, and the log of every connection and
/// request.
final class WebPushStandIn {
    /// One scripted answer (see the stand-in's documentation); `nil` members are left out.
    struct Answer: Encodable {
        var status: Int?
        var retryAfter: String?
        var html: Bool?
        var delay: Double?
        var action: String?
        var check: Bool?

        enum CodingKeys: String, CodingKey {
            case status, html, delay, action, check
            case retryAfter = "retry_after"
        }
    }

    /// A line of the stand-in's log: a connection or a request.
    struct Event: Decodable {
        struct Token: Decodable {
            var alg: String?
            var typ: String?
            var aud: String?
            var exp: Int64?
            var sub: String?
            var k: String?
        }

        struct Reply: Decodable {
            var status: Int?
            var reason: String?
            var action: String
        }

        var event: String
        var listener: String
        var path: String?
        var headers: [String: String]?
        var vapid: Token?
        var authorization: String?
        var plaintext: String?
        var bodySize: Int?
        var answer: Reply?
    }

    /// A listener: its address and port.
    struct Listener: Decodable {
        var host: String
        var port: Int
    }

    let caFile: String
    let listeners: [Listener]
    private let server: StandInProcess
    private let keys: Mutex<[String: (P256.KeyAgreement.PrivateKey, [UInt8])]>

    /// Starts a stand-in listening on `listen` (loopback addresses), knowing a subscription for each of `paths` and
    /// answering `answers` (path → answers, in order).
    init(paths: [String], answers: [String: [Answer]] = [:], listen: [String] = ["127.0.0.1"]) async throws {
        server = try StandInProcess(name: "the stand-in push service", prefix: "webpush-standin")
        caFile = server.path("ca.pem")
        var made: [String: (P256.KeyAgreement.PrivateKey, [UInt8])] = [:]
        var entries: [String: [String: String]] = [:]
        for path in paths {
            let key = P256.KeyAgreement.PrivateKey()
            let auth = SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
            made[path] = (key, auth)
            entries[path] = [
                "private_key": Base64URLCoding.encode(Array(key.rawRepresentation)),
                "auth": Base64URLCoding.encode(auth),
            ]
        }
        keys = Mutex(made)
        let subscriptionsFile = server.path("subscriptions.json")
        try JSONEncoder().encode(entries).write(to: URL(fileURLWithPath: subscriptionsFile))
        let scriptFile = server.path("script.json")
        try JSONEncoder().encode(["answers": answers]).write(to: URL(fileURLWithPath: scriptFile))
        struct Ready: Decodable {
            var listeners: [Listener]
        }
        let ready = try await server.start(
            script: StandInProcess.script("webpush_standin.py"),
            arguments: [
                "--subscriptions", subscriptionsFile, "--ca-out", caFile, "--log", server.logFile, "--script",
                scriptFile,
            ] + listen.flatMap { ["--listen", $0] }, ready: Ready.self)
        listeners = ready.listeners
    }

    /// Stops the stand-in: SIGTERM, and SIGKILL if it is still running 5 s later.
    func stop() { server.stop() }

    /// The subscription of `path` on the listener `index`, as a directory gives it.
    func subscription(_ path: String, listener index: Int = 0, host: String? = nil) -> WebPushSubscription {
        let listener = listeners[index]
        let written = host ?? (listener.host.contains(":") ? "[\(listener.host)]" : listener.host)
        let (key, auth) = keys.withLock { $0[path] } ?? (P256.KeyAgreement.PrivateKey(), [])
        return WebPushSubscription(
            endpoint: "https://\(written):\(listener.port)\(path)", p256dh: Array(key.publicKey.x963Representation),
            auth: auth)
    }

    /// Every event logged so far, oldest first.
    func events() throws -> [Event] {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try server.logEntries(Event.self, decoder: decoder)
    }

    /// The requests for `path`.
    func requests(_ path: String) throws -> [Event] {
        try events().filter { $0.event == "request" && $0.path == path }
    }
}
