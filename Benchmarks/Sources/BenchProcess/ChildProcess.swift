import Foundation

/// A process of a benchmark (the broker, a contender, the console), whose CPU time and peak resident
/// memory are read from `/proc` while it runs.
public final class ChildProcess: @unchecked Sendable {
    // `@unchecked Sendable`: `process` is only started in init and then read (pid, isRunning), which
    // Foundation's Process allows from any thread; `output` is read by one caller at a time.
    private let process: Process
    private let output: Pipe?
    /// The executable's file name.
    public let name: String

    /// Starts `executable` with `arguments`; standard output is captured when `captureOutput`, standard
    /// error is the benchmark's. The environment is emptied but for `PATH` and `HOME` (and `environment`), so
    /// no `PUSHGATE_*` or `OTEL_*` variable of the caller changes a contender.
    public init(
        _ executable: String, arguments: [String], captureOutput: Bool, environment: [String: String] = [:]
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let inherited = ProcessInfo.processInfo.environment
        process.environment = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp"]
            .merging(environment) { $1 }
        let output = captureOutput ? Pipe() : nil
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        self.output = output
        self.name = URL(fileURLWithPath: executable).lastPathComponent
    }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }

    /// Whether the process still runs.
    public var isRunning: Bool { process.isRunning }

    /// The next line of standard output, read on a thread of its own (the read blocks).
    public func nextLine() async throws -> String {
        guard let handle = output?.fileHandleForReading else { throw BenchmarkError("standard output not captured") }
        let line: String? = await withCheckedContinuation { continuation in
            let thread = Thread {
                var bytes: [UInt8] = []
                while true {
                    let chunk = handle.readData(ofLength: 1)
                    guard let byte = chunk.first else { break }
                    if byte == UInt8(ascii: "\n") { break }
                    bytes.append(byte)
                }
                continuation.resume(returning: bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self))
            }
            thread.start()
        }
        guard let line else {
            throw BenchmarkError("\(name) \(process.arguments ?? []) printed nothing (see its errors above)")
        }
        return line
    }

    /// User plus system CPU time of the process so far, in seconds, every thread included; `nil` when
    /// `/proc` cannot tell.
    public func cpuSeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": field 3 (state) onwards; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A size from `/proc/PID/status` (`VmHWM`, `VmRSS`), in bytes; `nil` when `/proc` cannot tell.
    public func memoryBytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let number = line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return number.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// Sends SIGTERM and waits up to `timeout` for the exit; returns the exit status, `nil` when the
    /// process had to be killed.
    public func terminate(timeout: Duration = .seconds(60)) async -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        process.terminate()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            kill(pid, SIGKILL)
            return nil
        }
        return process.terminationStatus
    }

    /// Kills the process at once (cleanup after a failure).
    public func forceStop() {
        if process.isRunning { kill(pid, SIGKILL) }
    }
}

/// A failure of the benchmark, with what to do about it.
public struct BenchmarkError: Error, CustomStringConvertible {
    /// What failed, and what to do about it.
    public let description: String
    /// Creates the error.
    public init(_ description: String) { self.description = description }
}
