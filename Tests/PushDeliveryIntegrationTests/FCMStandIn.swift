import Foundation
import _CryptoExtras

/// The stand-in FCM and token endpoint (`Tests/Integration/standins/fcm_standin.py`) run as a subprocess for one
/// test: its own test CA (passed to the sender as `--ca-file` would), one loopback port for grants and sends, a
/// service account made for the test (its file written with the stand-in's `token_uri`), scripted answers, and the
/// log of every request it received.
final class FCMStandIn {
    static let projectID = "shop-12345"

    /// One scripted answer (see the stand-in's documentation); `nil` members are left out.
    struct Answer: Encodable {
        var status: Int?
        var errorCode: String?
        var retryAfter: String?
        var html: Bool?
        var body: String?
        var delay: Double?
        var revoke: Bool?
        var action: String?

        enum CodingKeys: String, CodingKey {
            case status, html, body, delay, revoke, action
            case errorCode = "error_code"
            case retryAfter = "retry_after"
        }
    }

    private struct Script: Encodable {
        var answers: [String: [Answer]]
        var grants: [Answer]
    }

    /// A request as the stand-in logged it.
    struct LoggedRequest: Decodable {
        struct Reply: Decodable {
            var status: Int?
            var errorCode: String?
            var action: String

            enum CodingKeys: String, CodingKey {
                case status, action
                case errorCode = "error_code"
            }
        }

        var kind: String
        var path: String?
        var headers: [String: String]
        var body: String
        var bodyBase64: String
        var token: String?
        var project: String?
        var accessTokenDigest: String?
        var assertion: String?
        var answer: Reply

        enum CodingKeys: String, CodingKey {
            case kind, path, headers, body, token, project, assertion, answer
            case bodyBase64 = "body_base64"
            case accessTokenDigest = "access_token_digest"
        }

        /// The exact bytes of the body.
        var bodyBytes: [UInt8] { Array(Data(base64Encoded: bodyBase64) ?? Data()) }
    }

    /// The service-account file, with the stand-in's `token_uri`.
    let credentialsFile: String
    let caFile: String
    let port: Int
    let tokenURI: String
    let key: _RSA.Signing.PrivateKey
    private let server: StandInProcess

    /// Starts a stand-in that accepts grants of a service account made now, answering `answers` (registration token
    /// → answers, in order) and `grants`; `arguments` are further options (`--token-lifetime`, ...).
    init(answers: [String: [Answer]] = [:], grants: [Answer] = [], arguments: [String] = []) async throws {
        server = try StandInProcess(name: "the stand-in FCM", prefix: "fcm-standin")
        credentialsFile = server.path("service-account.json")
        caFile = server.path("ca.pem")
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)  // made now: no key is ever committed
        try Self.writeAccount(to: credentialsFile, key: key, tokenURI: "https://127.0.0.1:9/token")
        let scriptFile = server.path("script.json")
        try JSONEncoder().encode(Script(answers: answers, grants: grants)).write(to: URL(fileURLWithPath: scriptFile))
        struct Ready: Decodable {
            var port: Int
            var tokenUri: String
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let ready = try await server.start(
            script: StandInProcess.script("fcm_standin.py"),
            arguments: [
                "--service-account", credentialsFile, "--ca-out", caFile, "--log", server.logFile, "--script",
                scriptFile,
            ] + arguments, ready: Ready.self, decoder: decoder)
        port = ready.port
        tokenURI = ready.tokenUri
        try Self.writeAccount(to: credentialsFile, key: key, tokenURI: tokenURI)
    }

    /// A service-account key file as Google writes one.
    static func writeAccount(to path: String, key: _RSA.Signing.PrivateKey, tokenURI: String) throws {
        let members: [String: String] = [
            "type": "service_account", "project_id": projectID,
            "private_key_id": "4f5c1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f",
            "private_key": key.pkcs8PEMRepresentation, "client_email": "pushgate@\(projectID).iam.gserviceaccount.com",
            "client_id": "112233445566778899001", "token_uri": tokenURI,
        ]
        try JSONSerialization.data(withJSONObject: members).write(to: URL(fileURLWithPath: path))
    }

    /// Stops the stand-in: SIGTERM, and SIGKILL if it is still running 5 s later.
    func stop() { server.stop() }

    /// Every request received so far, oldest first.
    func requests() throws -> [LoggedRequest] { try server.logEntries(LoggedRequest.self) }

    /// The sends to a registration token.
    func sends(token: String) throws -> [LoggedRequest] {
        try requests().filter { $0.kind == "send" && $0.token == token }
    }

    /// The grants posted.
    func grants() throws -> [LoggedRequest] { try requests().filter { $0.kind == "grant" } }
}
