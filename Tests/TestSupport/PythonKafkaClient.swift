import Foundation
import Synchronization

/// Runs `Tests/Integration/kafka_client.py`: an independent Kafka client (confluent-kafka with its own
/// librdkafka) that writes the inputs and reads what the worker wrote.
public enum PythonKafkaClient {
    /// A record as the script reads and writes it (bytes in base64).
    public struct Record: Codable, Sendable {
        public var topic: String?
        public var partition: Int32?
        public var offset: Int64?
        public var key: String?
        /// `nil` for a null value (a tombstone).
        public var value: String?
        public var headers: [[String?]]
        public var timestamp: Int64?

        public var keyBytes: [UInt8]? { key.flatMap { Data(base64Encoded: $0) }.map { Array($0) } }
        public var valueBytes: [UInt8] { value.flatMap { Data(base64Encoded: $0) }.map { Array($0) } ?? [] }
        public var valueIsNull: Bool { value == nil }
        public var headerPairs: [(String, [UInt8]?)] {
            headers.map { pair in
                (
                    pair.first.flatMap { $0 } ?? "",
                    pair.count > 1 ? pair[1].flatMap { Data(base64Encoded: $0) }.map { Array($0) } : nil
                )
            }
        }

        /// A record; a `nil` value is a null one (a tombstone).
        public init(key: [UInt8]?, value: [UInt8]?, headers: [(String, [UInt8]?)], timestamp: Int64? = nil) {
            self.key = key.map { Data($0).base64EncodedString() }
            self.value = value.map { Data($0).base64EncodedString() }
            self.headers = headers.map { [$0.0, $0.1.map { Data($0).base64EncodedString() }] }
            self.timestamp = timestamp
        }
    }

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Integration/kafka_client.py").path

    public static func produce(_ records: [Record], to topic: String, bootstrap: String) async throws {
        let input = try records.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }.joined(
            separator: "\n")
        _ = try await run(["produce", bootstrap, topic], input: Data(input.utf8))
    }

    /// Reads `topics` from the beginning until `expect` records came (and none for 1.5 s), or `timeout`
    /// seconds passed; fewer records throw, unless `allowShort`: the caller then says what is missing.
    public static func dump(
        _ topics: [String], bootstrap: String, expect: Int, timeout: Int = 90, allowShort: Bool = false
    ) async throws -> [Record] {
        let output = try await run(
            ["dump", bootstrap] + topics + ["--expect", "\(expect)", "--timeout", "\(timeout)", "--idle", "1.5"]
                + (allowShort ? ["--allow-short"] : []))
        return try output.split(separator: UInt8(ascii: "\n")).map {
            try JSONDecoder().decode(Record.self, from: Data($0))
        }
    }

    public static func committed(group: String, topic: String, bootstrap: String) async throws -> [String: Int64] {
        try JSONDecoder().decode([String: Int64].self, from: try await run(["committed", bootstrap, group, topic]))
    }

    public static func watermarks(topic: String, bootstrap: String) async throws -> [String: Int64] {
        try JSONDecoder().decode([String: Int64].self, from: try await run(["watermarks", bootstrap, topic]))
    }

    public struct Failed: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
    }

    /// Runs the script on a dedicated thread (waiting for a process blocks) and returns its stdout.
    public static func run(_ arguments: [String], input: Data = Data()) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                    process.arguments = ["python3", script] + arguments
                    let stdin = Pipe()
                    let stdout = Pipe()
                    let stderr = Pipe()
                    process.standardInput = stdin
                    process.standardOutput = stdout
                    process.standardError = stderr
                    try process.run()
                    let writer = Thread {
                        stdin.fileHandleForWriting.write(input)
                        try? stdin.fileHandleForWriting.close()
                    }
                    writer.start()
                    let errorCollector = Mutex(Data())
                    let errorReader = Thread {
                        let data = stderr.fileHandleForReading.readDataToEndOfFile()
                        errorCollector.withLock { $0 = data }
                    }
                    errorReader.start()
                    let output = stdout.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    if process.terminationStatus != 0 {
                        Thread.sleep(forTimeInterval: 0.2)
                        let text = String(decoding: errorCollector.withLock { $0 }, as: UTF8.self)
                        continuation.resume(
                            throwing: Failed(description: "kafka_client.py \(arguments.first ?? "") failed: \(text)"))
                    } else {
                        continuation.resume(returning: output)
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
    }
}
