import Crypto
import Foundation
import Synchronization

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

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    let directory: URL
    let keyFile: String
    let caFile: String
    let productionPort: Int
    let sandboxPort: Int
    private let logFile: String
    private let process: Process

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Integration/standins/apns_standin.py").path

    /// Starts a stand-in that verifies tokens signed by `key` (a new key by default) and answers `answers` (device
    /// token or channel id → answers, in order); `environments` puts tokens in `development` or `production`.
    init(
        key: P256.Signing.PrivateKey = P256.Signing.PrivateKey(), answers: [String: [Answer]] = [:],
        environments: [String: String] = [:]
    ) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("apns-standin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        keyFile = directory.appendingPathComponent("AuthKey_\(Self.keyID).p8").path
        caFile = directory.appendingPathComponent("ca.pem").path
        logFile = directory.appendingPathComponent("requests.jsonl").path
        try Data(key.pemRepresentation.utf8).write(to: URL(fileURLWithPath: keyFile))
        let scriptFile = directory.appendingPathComponent("script.json")
        try JSONEncoder().encode(Script(answers: answers, environments: environments)).write(to: scriptFile)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Self.script, "--verify-key", keyFile, "--key-id", Self.keyID, "--team-id", Self.teamID,
            "--bundle-id", Self.bundleID, "--ca-out", caFile, "--log", logFile, "--script", scriptFile.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = try await Self.firstLine(of: output.fileHandleForReading, timeout: 30)
        struct Ready: Decodable {
            var productionPort: Int
            var sandboxPort: Int
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let ready = try? decoder.decode(Ready.self, from: Data(line.utf8)) else {
            process.terminate()
            throw Failed(description: "the stand-in APNs did not start: \(line)")
        }
        productionPort = ready.productionPort
        sandboxPort = ready.sandboxPort
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
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

    /// The requests for a device token's path.
    func requests(token: String) throws -> [LoggedRequest] {
        try requests().filter { $0.path == "/3/device/\(token)" }
    }

    /// The whole text of the request log.
    func logText() -> String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

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
                resume(.failure(Failed(description: "the stand-in APNs did not start in \(timeout) s")))
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
