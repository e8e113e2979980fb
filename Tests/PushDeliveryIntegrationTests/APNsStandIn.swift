import Crypto
import Foundation

/// The stand-in APNs (`Tests/Integration/standins/apns_standin.py`) run as a subprocess for one test: its own test
/// CA (passed to the sender with `--ca-file`), a production and a sandbox port on loopback, a provider key made for
/// the test, scripted answers, and the log of every request it received.
final class APNsStandIn {
    static let keyID = "KEYID12345"
    static let teamID = "TEAMID6789"
    static let bundleID = "com.example.shop"

    /// One scripted answer (see the stand-in's documentation); `nil` members are left out.
    struct Answer: Encodable {
        var status: Int?
        var reason: String?
        var timestamp: Int64?
        var retryAfter: String?
        var delay: Double?
        var action: String?
        var body: String?

        enum CodingKeys: String, CodingKey {
            case status, reason, timestamp, delay, action, body
            case retryAfter = "retry_after"
        }
    }

    private struct Script: Encodable {
        var answers: [String: [Answer]]
        var environments: [String: String]
    }

    /// A request as the stand-in logged it.
    struct LoggedRequest: Decodable {
        struct Token: Decodable {
            var alg: String?
            var kid: String?
            var iss: String?
            var digest: String
        }

        struct Reply: Decodable {
            var status: Int?
            var reason: String?
            var action: String
        }

        var environment: String
        var connection: Int
        var method: String?
        var path: String?
        var headers: [String: String]
        var jwt: Token?
        var body: String
        var answer: Reply
    }

    let keyFile: String
    let caFile: String
    let productionPort: Int
    let sandboxPort: Int
    private let server: StandInProcess

    /// Starts a stand-in that verifies tokens signed by `key` (a new key by default) and answers `answers` (device
    /// token or channel id → answers, in order); `environments` puts tokens in `development` or `production`.
    init(
        key: P256.Signing.PrivateKey = P256.Signing.PrivateKey(), answers: [String: [Answer]] = [:],
        environments: [String: String] = [:]
    ) async throws {
        server = try StandInProcess(name: "the stand-in APNs", prefix: "apns-standin")
        keyFile = server.path("AuthKey_\(Self.keyID).p8")
        caFile = server.path("ca.pem")
        try Data(key.pemRepresentation.utf8).write(to: URL(fileURLWithPath: keyFile))
        let scriptFile = server.path("script.json")
        try JSONEncoder().encode(Script(answers: answers, environments: environments))
            .write(to: URL(fileURLWithPath: scriptFile))
        struct Ready: Decodable {
            var productionPort: Int
            var sandboxPort: Int
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let ready = try await server.start(
            script: StandInProcess.script("apns_standin.py"),
            arguments: [
                "--verify-key", keyFile, "--key-id", Self.keyID, "--team-id", Self.teamID, "--bundle-id",
                Self.bundleID, "--ca-out", caFile, "--log", server.logFile, "--script", scriptFile,
            ], ready: Ready.self, decoder: decoder)
        productionPort = ready.productionPort
        sandboxPort = ready.sandboxPort
    }

    /// Stops the stand-in: SIGTERM, and SIGKILL if it is still running 5 s later.
    func stop() { server.stop() }

    /// Every request received so far, oldest first.
    func requests() throws -> [LoggedRequest] { try server.logEntries(LoggedRequest.self) }

    /// The requests for a device token's path.
    func requests(token: String) throws -> [LoggedRequest] {
        try requests().filter { $0.path == "/3/device/\(token)" }
    }

    /// The whole text of the request log.
    func logText() -> String { server.logText() }
}
