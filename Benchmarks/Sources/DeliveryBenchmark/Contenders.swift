import BenchProcess
import Foundation
import PushgateKafka
import Synchronization

/// A command run to its end under bash, whose builtin `times` then gives the command's user and system CPU
/// time (its whole process tree), read from the last line of its output.
struct TimedCommand {
    var output = ""
    var status: Int32 = 0
    var cpuSeconds = 0.0
    var seconds = 0.0

    static func run(_ executable: String, _ arguments: [String], directory: String, name: String) async throws
        -> TimedCommand
    {
        let outputPath = "\(directory)/\(name).out"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        guard let output = FileHandle(forWritingAtPath: outputPath) else {
            throw BenchmarkError("cannot write \(outputPath)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", #""$@"; status=$?; times; exit $status"#, "bash", executable] + arguments
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        let started = ContinuousClock.now
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        var result = TimedCommand()
        result.seconds = (ContinuousClock.now - started).seconds
        try output.close()
        result.status = process.terminationStatus
        let lines = ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "").split(separator: "\n")
        // `times` prints the shell's own times, then its children's: "0m1.234s 0m0.056s".
        guard let children = lines.last else { throw BenchmarkError("\(name) printed nothing") }
        result.cpuSeconds = children.split(separator: " ").compactMap(Self.seconds).reduce(0, +)
        result.output = lines.dropLast(2).joined(separator: "\n")
        return result
    }

    /// "1m2.345s" as seconds.
    private static func seconds(_ text: Substring) -> Double? {
        guard let m = text.firstIndex(of: "m"), text.last == "s", let minutes = Double(text[..<m]),
            let seconds = Double(text[text.index(after: m)..<text.index(before: text.endIndex)])
        else { return nil }
        return minutes * 60 + seconds
    }
}

/// A client other than deliver sending the same requests to the same nginx: its rate, its CPU and nginx's.
struct ContenderFigures {
    var requests = 0
    var answered = 0
    var seconds = 0.0
    var cpuSeconds = 0.0
    var nginxCPUSeconds = 0.0

    var requestsPerSecond: Double { Double(requests) / seconds }
    var cpuPerRequest: Double { cpuSeconds / Double(requests) }
    var nginxCPUPerAnswer: Double { nginxCPUSeconds / Double(requests) }
}

/// The Python peer (`delivery_peer.py`) over the same records and directory, in a consumer group of its own.
struct PeerRun {
    let python: String
    let script: String
    let servers: String
    let workload: Workload
    let fixture: Fixture
    let nginx: Nginx
    let timeout: Duration

    func measure() async throws -> ContenderFigures {
        var arguments = [
            script, "--platform", workload.platform, "--bootstrap-servers", servers, "--topic", workload.topic,
            "--group-id", "bench-peer-\(workload.platform)", "--expect", String(workload.sends),
            "--ca-file", "\(fixture.directory)/ca.pem", "--timeout", String(Int(timeout.seconds)),
        ]
        switch workload.platform {
        case "apns":
            arguments += [
                "--apns-endpoint", workload.origin, "--apns-key-file", "\(fixture.directory)/apns.p8",
                "--apns-key-id", fixture.apnsKeyID, "--apns-team-id", fixture.apnsTeamID,
                "--apns-bundle-id", Fixture.bundleID,
            ]
        case "fcm":
            arguments += [
                "--fcm-credentials", "\(fixture.directory)/service-account.json", "--fcm-endpoint", workload.origin,
            ]
        default:
            arguments += ["--vapid-key", "\(fixture.directory)/vapid.pem", "--vapid-subject", Fixture.vapidSubject]
        }
        let nginxBefore = nginx.workerCPUSeconds()
        let run = try await TimedCommand.run(
            python, arguments, directory: fixture.directory, name: "peer-\(workload.platform)")
        let nginxCPU = nginx.workerCPUSeconds() - nginxBefore
        guard run.status == 0, let line = run.output.split(separator: "\n").last,
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let requests = object["requests"] as? Int, let seconds = object["seconds"] as? Double,
            let cpu = object["cpu_seconds"] as? Double, let statuses = object["statuses"] as? [String: Int]
        else {
            throw BenchmarkError("the Python peer failed (exit \(run.status)): \(run.output.suffix(2000))")
        }
        let answered = statuses.filter { $0.key.hasPrefix("2") }.values.reduce(0, +)
        return ContenderFigures(
            requests: requests, answered: answered, seconds: seconds, cpuSeconds: cpu, nginxCPUSeconds: nginxCPU)
    }
}

/// h2load (nghttp2) sending the platform's request `workload.sends` times over one connection, as many
/// streams at once as deliver keeps (1,000).
struct H2loadRun {
    let h2load: String
    let workload: Workload
    let fixture: Fixture
    let nginx: Nginx

    func measure() async throws -> ContenderFigures {
        let arguments =
            ["-n", String(workload.sends), "-c", "1", "-t", "1", "-m", "1000"]
            + (try workload.h2loadArguments(fixture))
        let nginxBefore = nginx.workerCPUSeconds()
        let run = try await TimedCommand.run(
            h2load, arguments, directory: fixture.directory, name: "h2load-\(workload.platform)")
        let nginxCPU = nginx.workerCPUSeconds() - nginxBefore
        // "requests: 300 total, 300 started, 300 done, 300 succeeded, 0 failed, 0 errored, 0 timeout"
        // "finished in 25.03ms, 11985.62 req/s, 1.97MB/s"
        let lines = run.output.split(separator: "\n")
        func number(after prefix: String, _ index: Int) -> Double? {
            guard let line = lines.first(where: { $0.hasPrefix(prefix) }) else { return nil }
            let words = line.dropFirst(prefix.count).split(whereSeparator: { $0 == " " || $0 == "," })
            return words.count > index ? Double(words[index]) : nil
        }
        guard run.status == 0, let succeeded = number(after: "requests: ", 6),
            let rate = number(after: "finished in ", 1)
        else {
            throw BenchmarkError("h2load failed (exit \(run.status)): \(run.output.suffix(2000))")
        }
        // 2xx answers: "status codes: 300 2xx, 0 3xx, 0 4xx, 0 5xx"
        let answered = number(after: "status codes: ", 0).map { Int($0) } ?? 0
        return ContenderFigures(
            requests: Int(succeeded), answered: answered, seconds: Double(workload.sends) / rate,
            cpuSeconds: run.cpuSeconds, nginxCPUSeconds: nginxCPU)
    }
}

/// Counts acknowledgements and keeps the first failure.
final class Acknowledgements: KafkaDeliveryReceiver, @unchecked Sendable {
    // `@unchecked Sendable`: the state is behind a Mutex.
    private let state = Mutex<(count: Int, failure: String?)>((0, nil))

    var failure: String? { state.withLock { $0.failure } }

    override func received(_ delivery: KafkaDelivery) {
        let error = delivery.error.map { "\($0)" }
        state.withLock { state in
            state.count += 1
            if state.failure == nil, let error { state.failure = error }
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
