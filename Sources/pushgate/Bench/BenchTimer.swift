import Foundation

/// Times a loop over a set of items for a fixed duration and gives items per second.
final class BenchTimer {
    let seconds: Double
    private var sink = 0

    init(seconds: Double) { self.seconds = seconds }

    /// Keeps a result alive so that the work producing it is not optimized away.
    func consume(_ value: Int) { sink &+= value }

    /// Runs `pass` (one pass over `items` items) until `seconds` have passed; items per second.
    func rate(_ items: Int, _ pass: () -> Void) -> Double {
        var count = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        var now = start
        while now < deadline {
            pass()
            count += items
            now = DispatchTime.now().uptimeNanoseconds
        }
        if sink == Int.min { print(sink) }
        return Double(count) / (Double(now - start) / 1e9)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}

/// Heap allocations per translated payload: this command is run again with `--iterations 0` and
/// `--iterations 4` under an LD_PRELOAD malloc counter (scripts/malloc-count.c, compiled with `cc`);
/// the difference over the payloads translated is the figure. `nil` when no compiler or source is found.
enum AllocationCounter {
    static func perPayload(payloads: Int, kind: String? = nil) -> Double? {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../scripts/malloc-count.c").standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: source) else { return nil }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pushgate-malloc-count-\(getpid()).so").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        guard run("/usr/bin/env", ["cc", "-O2", "-shared", "-fPIC", "-o", library, source], preload: nil) != nil,
            let base = count(iterations: 0, payloads: payloads, kind: kind, library: library),
            let measured = count(iterations: 4, payloads: payloads, kind: kind, library: library)
        else { return nil }
        return Double(measured - base) / Double(4 * payloads)
    }

    private static func count(iterations: Int, payloads: Int, kind: String?, library: String) -> Int? {
        let arguments = ["bench", "translate", "--payloads", String(payloads), "--iterations", String(iterations)]
            + (kind.map { ["--kind", $0] } ?? [])
        guard let output = run(CommandLine.arguments[0], arguments, preload: library) else { return nil }
        let line = output.split(separator: "\n").last { $0.hasPrefix("malloc-count: ") }
        return line.flatMap { Int($0.dropFirst("malloc-count: ".count)) }
    }

    /// Runs a program; its standard error (where the counter reports), `nil` when it fails.
    private static func run(_ path: String, _ arguments: [String], preload: String?) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let preload { process.environment = ProcessInfo.processInfo.environment.merging(["LD_PRELOAD": preload]) { $1 } }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
