import ArgumentParser
import Foundation

/// A `pushgate` subprocess of the pipeline benchmark (the broker or a contender), whose CPU time and
/// peak resident memory are read from `/proc` while it runs.
final class PipelineChildProcess: @unchecked Sendable {
    // `@unchecked Sendable`: `process` is only started in init and then read (pid, isRunning), which
    // Foundation's Process allows from any thread; `output` is read once, by `firstLine()`.
    private let process: Process
    private let output: Pipe?

    /// Starts this executable with `arguments`; standard output is captured when `captureOutput`,
    /// standard error is the benchmark's. The environment is emptied but for `PATH` and `HOME`, so no
    /// `PUSHGATE_*` variable of the caller changes a contender.
    init(arguments: [String], captureOutput: Bool) throws {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let inherited = ProcessInfo.processInfo.environment
        process.environment = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp"]
        let output = captureOutput ? Pipe() : nil
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        self.output = output
    }

    /// The running executable (`/proc/self/exe`), else the command's first argument.
    static var executable: URL {
        let link = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if link.path != "/proc/self/exe" { return link }
        return URL(fileURLWithPath: CommandLine.arguments[0])
    }

    /// The process id.
    var pid: Int32 { process.processIdentifier }

    /// Whether the process still runs.
    var isRunning: Bool { process.isRunning }

    /// The first line of standard output, read on a thread of its own (the read blocks).
    func firstLine() async throws -> String {
        guard let handle = output?.fileHandleForReading else { throw ValidationError("standard output not captured") }
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
        guard let line else { throw ValidationError("\(Self.executable.lastPathComponent) \(process.arguments ?? []) printed nothing") }
        return line
    }

    /// User plus system CPU time of the process so far, in seconds, every thread included; `nil` when
    /// `/proc` cannot tell.
    func cpuSeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": field 3 (state) onwards; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The peak resident set size so far (`VmHWM`), in bytes; `nil` when `/proc` cannot tell.
    func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let number = line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return number.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// Sends SIGTERM and waits up to `timeout` for the exit; returns the exit status, `nil` when the
    /// process had to be killed.
    func terminate(timeout: Duration = .seconds(60)) async -> Int32? {
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
    func forceStop() {
        if process.isRunning { kill(pid, SIGKILL) }
    }
}
