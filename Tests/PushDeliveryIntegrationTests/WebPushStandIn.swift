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

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    let directory: URL
    let caFile: String
    let listeners: [Listener]
    private let logFile: String
    private let process: Process
    private let keys: Mutex<[String: (P256.KeyAgreement.PrivateKey, [UInt8])]>

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Integration/standins/webpush_standin.py").path

    /// Starts a stand-in listening on `listen` (loopback addresses), knowing a subscription for each of `paths` and
    /// answering `answers` (path → answers, in order).
    init(paths: [String], answers: [String: [Answer]] = [:], listen: [String] = ["127.0.0.1"]) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webpush-standin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        caFile = directory.appendingPathComponent("ca.pem").path
        logFile = directory.appendingPathComponent("requests.jsonl").path
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
        let subscriptionsFile = directory.appendingPathComponent("subscriptions.json")
        try JSONEncoder().encode(entries).write(to: subscriptionsFile)
        let scriptFile = directory.appendingPathComponent("script.json")
        try JSONEncoder().encode(["answers": answers]).write(to: scriptFile)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", Self.script, "--subscriptions", subscriptionsFile.path, "--ca-out", caFile, "--log",
                logFile, "--script", scriptFile.path,
            ] + listen.flatMap { ["--listen", $0] }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = try await StandInOutput.firstLine(of: output.fileHandleForReading, timeout: 30)
        struct Ready: Decodable {
            var listeners: [Listener]
        }
        guard let ready = try? JSONDecoder().decode(Ready.self, from: Data(line.utf8)) else {
            process.terminate()
            throw Failed(description: "the stand-in push service did not start: \(line)")
        }
        listeners = ready.listeners
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
        let text = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try text.split(separator: "\n").map { try decoder.decode(Event.self, from: Data($0.utf8)) }
    }

    /// The requests for `path`.
    func requests(_ path: String) throws -> [Event] {
        try events().filter { $0.event == "request" && $0.path == path }
    }
}

/// Reads a subprocess's first line of output.
enum StandInOutput {
    /// Reads one line on a dedicated thread (reading a pipe blocks).
    static func firstLine(of handle: FileHandle, timeout: Double) async throws -> String {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
            let once = FirstOnly()
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
                resume(.failure(WebPushStandIn.Failed(description: "the stand-in did not start in \(timeout) s")))
            }
        }
    }
}

/// Says yes once: a continuation is resumed by whichever of two threads comes first.
private final class FirstOnly: Sendable {
    private let done = Mutex(false)

    func first() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
