import Foundation
import Synchronization
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

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    let directory: URL
    /// The service-account file, with the stand-in's `token_uri`.
    let credentialsFile: String
    let caFile: String
    let port: Int
    let tokenURI: String
    let key: _RSA.Signing.PrivateKey
    private let logFile: String
    private let process: Process

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Integration/standins/fcm_standin.py").path

    /// Starts a stand-in that accepts grants of a service account made now, answering `answers` (registration token
    /// → answers, in order) and `grants`; `arguments` are further options (`--token-lifetime`, ...).
    init(answers: [String: [Answer]] = [:], grants: [Answer] = [], arguments: [String] = []) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fcm-standin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        credentialsFile = directory.appendingPathComponent("service-account.json").path
        caFile = directory.appendingPathComponent("ca.pem").path
        logFile = directory.appendingPathComponent("requests.jsonl").path
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)  // made now: no key is ever committed
        try Self.writeAccount(to: credentialsFile, key: key, tokenURI: "https://127.0.0.1:9/token")
        let scriptFile = directory.appendingPathComponent("script.json")
        try JSONEncoder().encode(Script(answers: answers, grants: grants)).write(to: scriptFile)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", Self.script, "--service-account", credentialsFile, "--ca-out", caFile, "--log", logFile,
                "--script", scriptFile.path,
            ] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = try await Self.firstLine(of: output.fileHandleForReading, timeout: 30)
        struct Ready: Decodable {
            var port: Int
            var tokenUri: String
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let ready = try? decoder.decode(Ready.self, from: Data(line.utf8)) else {
            process.terminate()
            throw Failed(description: "the stand-in FCM did not start: \(line)")
        }
        port = ready.port
        tokenURI = ready.tokenUri
        try Self.writeAccount(to: credentialsFile, key: key, tokenURI: tokenURI)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
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
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(5)
        while process.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Every request received so far, oldest first.
    func requests() throws -> [LoggedRequest] {
        let text = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { try JSONDecoder().decode(LoggedRequest.self, from: Data($0.utf8)) }
    }

    /// The sends to a registration token.
    func sends(token: String) throws -> [LoggedRequest] {
        try requests().filter { $0.kind == "send" && $0.token == token }
    }

    /// The grants posted.
    func grants() throws -> [LoggedRequest] { try requests().filter { $0.kind == "grant" } }

    /// Reads one line on a dedicated thread (reading a pipe blocks).
    private static func firstLine(of handle: FileHandle, timeout: Double) async throws -> String {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
            let once = Once()
            let resume: @Sendable (Result<String, any Error>) -> Void = { result in
                guard once.first() else { return }
                continuation.resume(with: result)
            }
            let reader = Thread {
                var bytes: [UInt8] = []
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    bytes += chunk
                    if bytes.contains(UInt8(ascii: "\n")) { break }
                }
                resume(.success(String(decoding: bytes.prefix(while: { $0 != UInt8(ascii: "\n") }), as: UTF8.self)))
            }
            reader.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                resume(.failure(Failed(description: "the stand-in FCM did not start in \(timeout) s")))
            }
        }
    }
}

/// Says yes once: a continuation is resumed by whichever of two threads comes first.
private final class Once: Sendable {
    private let done = Mutex(false)

    func first() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
