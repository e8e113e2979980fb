import Foundation
import Synchronization

/// A stand-in server (a script of `Tests/Integration/standins/`) run as a subprocess for one test: a temporary
/// directory for its files (removed with it), the launch, the JSON line it prints once listening, the JSON-lines
/// request log it writes to ``logFile``, and the stop.
final class StandInProcess {
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// What the stand-in is, for messages ("the stand-in APNs").
    let name: String
    /// The temporary directory of the stand-in's files.
    let directory: URL
    /// The request log the stand-in is told to write (`--log`).
    let logFile: String
    private let process = Process()

    /// Makes a new temporary directory named after `prefix`; nothing is launched yet.
    init(name: String, prefix: String) throws {
        self.name = name
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        logFile = directory.appendingPathComponent("requests.jsonl").path
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The path of a stand-in script, `file` in `Tests/Integration/standins/`.
    static func script(_ file: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Integration/standins/\(file)").path
    }

    /// The path of `file` in ``directory``.
    func path(_ file: String) -> String { directory.appendingPathComponent(file).path }

    /// Launches `python3 script arguments` and decodes the first line it prints as `Ready`; the process is stopped
    /// if that line is not one.
    func start<Ready: Decodable>(
        script: String, arguments: [String], ready: Ready.Type, decoder: JSONDecoder = JSONDecoder()
    ) async throws -> Ready {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = try await Self.firstLine(of: output.fileHandleForReading, timeout: 30, name: name)
        guard let decoded = try? decoder.decode(Ready.self, from: Data(line.utf8)) else {
            process.terminate()
            throw Failed(description: "\(name) did not start: \(line)")
        }
        return decoded
    }

    /// Stops the stand-in: SIGTERM, and SIGKILL if it is still running 5 s later.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(5)
        while process.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The whole text of the request log (empty before the first request).
    func logText() -> String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    /// Every line of the request log decoded as `Entry`, oldest first.
    func logEntries<Entry: Decodable>(_ entry: Entry.Type, decoder: JSONDecoder = JSONDecoder()) throws -> [Entry] {
        try logText().split(separator: "\n").map { try decoder.decode(Entry.self, from: Data($0.utf8)) }
    }

    /// Reads one line on a dedicated thread (reading a pipe blocks).
    private static func firstLine(of handle: FileHandle, timeout: Double, name: String) async throws -> String {
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
                resume(.failure(Failed(description: "\(name) did not start in \(timeout) s")))
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
