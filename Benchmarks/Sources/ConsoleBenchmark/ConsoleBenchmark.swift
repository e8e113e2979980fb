import ArgumentParser
import BenchProcess
import Foundation
import Logging

/// The console at scale: fills the dead-letter topic of `pushgate broker` with N dead letters as the
/// worker writes them, starts `pushgate console` on it, and measures how fast it reads the topic, its
/// memory, and how long each kind of request takes once it has read it (docs/performance.md).
@main
struct ConsoleBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console-benchmark",
        abstract: "pushgate console over a dead-letter topic of N letters: read rate, memory, answer times.",
        discussion: """
            Starts `pushgate broker` (librdkafka's mock cluster: about 5 MiB per partition, so keep letters × \
            bytes / partitions well under that), writes --letters dead letters with pushgate's headers (8 codes, \
            3 stages, 32 source partitions, 10,000 keys), starts `pushgate console`, waits until its counts \
            are whole, then times the counts, each filter, a letter, a re-drive and a text search. Ends with a \
            line for scripts: `console: ...`.
            """)

    @Option(help: "The pushgate executable (its `broker` and `console`).")
    var pushgate = ".build/release/pushgate"

    @Option(help: "How many dead letters to write.")
    var letters = 1_000_000

    @Option(help: "Bytes of each letter's value.")
    var valueBytes = 1_024

    @Option(help: "Partitions of the dead-letter topic (of every topic of the embedded broker).")
    var partitions = 512

    @Option(help: "Brokers of the embedded cluster (the partitions are spread over them).")
    var brokers = 1

    @Option(help: "Seconds to wait for the console to read every letter, and for a text search.")
    var timeout = 600

    @Option(
        name: .customShort("X"), help: ArgumentHelp("A librdkafka property for the console.", valueName: "KEY=VALUE"))
    var properties: [String] = []

    func validate() throws {
        guard letters > 0 else { throw ValidationError("--letters must be positive") }
        guard (64...1_000_000).contains(valueBytes) else { throw ValidationError("--value-bytes must be 64...1000000") }
        let perPartition = Double(letters) * Double(valueBytes + 400) / Double(partitions) / 1_048_576
        guard perPartition < 4.5 else {
            throw ValidationError(
                "about \(String(format: "%.1f", perPartition)) MiB per partition: the embedded broker keeps about 5; "
                    + "raise --partitions")
        }
    }

    func run() async throws {
        var logger = Logger(label: "console-benchmark")
        logger.logLevel = .error
        guard FileManager.default.isExecutableFile(atPath: pushgate) else {
            throw BenchmarkError("no executable at \(pushgate) (make build-release builds it)")
        }
        let broker = try ChildProcess(
            pushgate, arguments: ["broker", "--partitions", String(partitions), "--brokers", String(brokers)],
            captureOutput: true)
        defer { broker.forceStop() }
        let servers = try await broker.nextLine()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let filler = DeadLetterFiller(
            topic: "push.dlq", inputTopic: "push.unified", letters: letters, valueBytes: valueBytes,
            partitions: partitions,
            firstTimestampMs: now - Int64(letters))
        let fillSeconds = try await filler.fill(servers: servers, logger: logger)
        print(
            "filled: \(letters) dead letters of \(valueBytes) value bytes in \(partitions) partitions in "
                + "\(String(format: "%.1f", fillSeconds)) s")

        let console = try ChildProcess(
            pushgate,
            arguments: ["console", "--bootstrap-servers", servers, "--port", "0", "--log-level", "warning"]
                + properties.flatMap { ["-X", $0] },
            captureOutput: true)
        defer { console.forceStop() }
        print("console: pid \(console.pid)")

        let started = ContinuousClock.now
        let brokerCPU = broker.cpuSeconds() ?? 0
        let line = try await console.nextLine()
        guard let port = line.split(separator: " ").last.flatMap({ Int($0) }) else {
            throw BenchmarkError("the console printed '\(line)', not its port")
        }
        let client = ConsoleClient(port: port)
        var held = 0
        while held < letters {
            guard ContinuousClock.now - started < .seconds(timeout) else {
                throw BenchmarkError("the console read \(held) of \(letters) letters in \(timeout) s")
            }
            try await Task.sleep(for: .milliseconds(100))
            held = (try? await client.json("/api/live"))?["dead_letters"] as? Int ?? held
        }
        let readSeconds = (ContinuousClock.now - started).seconds
        let rate = Double(letters) / readSeconds
        print(
            "read: \(letters) letters in \(String(format: "%.1f", readSeconds)) s from the console's start: "
                + "\(Int(rate)) letters/s; CPU meanwhile: console \(String(format: "%.1f", console.cpuSeconds() ?? 0)) s, "
                + "broker \(String(format: "%.1f", (broker.cpuSeconds() ?? 0) - brokerCPU)) s")
        let memory = { (console.memoryBytes("VmHWM") ?? 0, console.memoryBytes("VmRSS") ?? 0) }
        let afterRead = memory()
        print("memory after reading: VmHWM \(afterRead.0 >> 20) MiB, VmRSS \(afterRead.1 >> 20) MiB")

        let times = try await AnswerTimes(client: client, letters: letters, timeout: timeout).measure()
        for (name, seconds) in times.all { print("answer: \(name) \(String(format: "%.3f", seconds)) s") }
        let atEnd = memory()
        print("memory at the end: VmHWM \(atEnd.0 >> 20) MiB, VmRSS \(atEnd.1 >> 20) MiB")
        // The text search is reported apart: its first answer waits up to 2 s for it by design.
        let slowest = times.all.filter { !$0.name.hasPrefix("q") }.map(\.seconds).max() ?? 0
        print(
            "console: \(letters) letters, \(Int(rate)) letters/s, VmHWM \(atEnd.0 >> 20) MiB, slowest answer "
                + "\(String(format: "%.3f", slowest)) s, q \(String(format: "%.1f", times.search)) s")
        _ = await console.terminate(timeout: .seconds(10))
        _ = await broker.terminate(timeout: .seconds(10))
    }
}
