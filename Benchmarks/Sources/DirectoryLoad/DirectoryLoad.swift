import ArgumentParser
import BenchProcess
import DirectoryRecords
import Foundation
import Logging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The device directory at a million devices, for real (docs/deliver.md, "Sizing"): writes N directory records
/// of the three platforms to `push.devices` on `pushgate broker`, starts `pushgate deliver` on it, and measures
/// the time until the directory is read up to its end (its /ready stops naming the directory), its CPU time, and
/// its resident memory once /ready answers 200.
@main
struct DirectoryLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "directory-load",
        abstract: "pushgate deliver reading a directory of N devices: time to /ready, CPU time, resident memory.",
        discussion: """
            Starts `pushgate broker` (librdkafka's mock cluster: about 5 MiB per partition, so keep the records' \
            bytes / partitions well under that), writes --devices directory records (60% APNs, 30% FCM, 10% web \
            push, two devices per audience), starts `pushgate deliver` with an APNs key made for the run, and \
            polls its /ready every 20 ms: the directory is read when /ready no longer names it (the rate is taken \
            there: deliver's CPU time, from /proc), then deliver joins its group and /ready answers 200. Checks \
            that pushgate_directory_devices adds up to --devices and reads VmHWM/VmRSS. Ends with a line for scripts: \
            `directory: ...`. Also prints the CPU time of deliver's busiest thread (the one that reads the directory) \
            and how long it waited for a CPU: on a loaded machine, the time to read is mostly that wait.
            """)

    @Option(help: "The pushgate executable (its `broker` and `deliver`).")
    var pushgate = ".build/release/pushgate"

    @Option(help: "How many directory records (devices) to write.")
    var devices = DirectoryRecords.defaultCount

    @Option(help: "Partitions of the directory topic (of every topic of the embedded broker).")
    var partitions = 128

    @Option(help: "Seconds to wait for deliver to be ready.")
    var timeout = 600

    @Option(
        name: .customShort("X"), help: ArgumentHelp("A librdkafka property for deliver.", valueName: "KEY=VALUE"))
    var properties: [String] = []

    func validate() throws {
        guard devices > 0 else { throw ValidationError("--devices must be positive") }
        let perPartition = Double(devices) * 260 / Double(partitions) / 1_048_576
        guard perPartition < 4 else {
            throw ValidationError(
                "about \(String(format: "%.1f", perPartition)) MiB per partition: the embedded broker keeps about 5; "
                    + "raise --partitions")
        }
    }

    func run() async throws {
        var logger = Logger(label: "directory-load")
        logger.logLevel = .error
        guard FileManager.default.isExecutableFile(atPath: pushgate) else {
            throw BenchmarkError("no executable at \(pushgate) (make build-release builds it)")
        }
        let keyDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "directory-load-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: keyDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: keyDirectory) }
        let keyFile = keyDirectory.appendingPathComponent("apns.p8").path
        try makeAPNsKey(at: keyFile)

        let broker = try ChildProcess(
            pushgate,
            arguments: [
                "broker", "--partitions", String(partitions), "--extra-topic", "push.devices", "--extra-topic",
                "push.receipts",
            ], captureOutput: true)
        defer { broker.forceStop() }
        let servers = try await broker.nextLine()
        let filler = DirectoryFiller(topic: "push.devices", devices: devices, partitions: partitions)
        let (fillSeconds, bytes) = try await filler.fill(servers: servers, logger: logger)
        print(
            "filled: \(devices) directory records (\(bytes >> 20) MiB of keys and values) in \(partitions) partitions "
                + "in \(String(format: "%.1f", fillSeconds)) s")

        let port = try LocalPort.free()
        let brokerCPU = broker.cpuSeconds() ?? 0
        let started = ContinuousClock.now
        let deliver = try ChildProcess(
            pushgate,
            arguments: [
                "deliver", "--bootstrap-servers", servers, "--apns-key-file", keyFile, "--apns-key-id", "KEYID12345",
                "--apns-team-id", "TEAMID1234", "--apns-bundle-id", DirectoryRecords.apnsApp, "--metrics-port",
                String(port), "--log-level", "warning",
            ] + properties.flatMap { ["-X", $0] },
            captureOutput: false)
        defer { deliver.forceStop() }
        print("deliver: pid \(deliver.pid)")

        let client = MetricsClient(port: port)
        // /ready says "reading the device directory" until the directory is read; then deliver joins its consumer
        // group (about 3 s on the embedded broker) and answers 200.
        var readSeconds: Double?
        var deliverCPU = 0.0
        var reader: ThreadTimes?
        while true {
            let (status, body) = await LocalPort.get(port, "/ready")
            if readSeconds == nil, status != 0, !body.contains("reading the device directory") {
                readSeconds = (ContinuousClock.now - started).seconds
                deliverCPU = deliver.cpuSeconds() ?? 0
                reader = ThreadTimes.busiest(of: deliver.pid)
            }
            if status == 200 { break }
            guard deliver.isRunning else { throw BenchmarkError("deliver exited before it was ready") }
            guard ContinuousClock.now - started < .seconds(timeout) else {
                throw BenchmarkError("deliver was not ready in \(timeout) s")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let readySeconds = (ContinuousClock.now - started).seconds
        let directorySeconds = readSeconds ?? readySeconds
        let brokerReadCPU = (broker.cpuSeconds() ?? 0) - brokerCPU
        let hwm = deliver.memoryBytes("VmHWM") ?? 0
        let rss = deliver.memoryBytes("VmRSS") ?? 0
        let held = try await client.devices()
        guard held == devices else { throw BenchmarkError("deliver holds \(held) devices, not \(devices)") }
        let rate = Double(devices) / directorySeconds
        print(
            "ready: \(devices) devices read in \(String(format: "%.2f", directorySeconds)) s from deliver's start: "
                + "\(Int(rate)) devices/s; /ready 200 after \(String(format: "%.2f", readySeconds)) s (its group "
                + "joined); CPU until read: deliver \(String(format: "%.2f", deliverCPU)) s "
                + "(\(String(format: "%.2f", deliverCPU / Double(devices) * 1e6)) µs a device), "
                + "broker \(String(format: "%.2f", brokerReadCPU)) s")
        print("memory when ready: VmHWM \(hwm >> 20) MiB, VmRSS \(rss >> 20) MiB")
        if let reader {
            // The directory's records are read and applied on one thread: the figures that explain the wall time.
            print(
                "busiest thread (\(reader.name)): CPU \(String(format: "%.2f", reader.cpu)) s, waited for a CPU "
                    + "\(String(format: "%.2f", reader.waiting)) s, the rest of the \(String(format: "%.2f", directorySeconds)) s "
                    + "asleep (waiting for records, start-up)")
        }
        print(
            "directory: \(devices) devices, \(Int(rate)) devices/s, VmHWM \(hwm >> 20) MiB, VmRSS \(rss >> 20) MiB, "
                + "deliver CPU \(String(format: "%.2f", deliverCPU / Double(devices) * 1e6)) µs/device")
        _ = await deliver.terminate(timeout: .seconds(30))
        _ = await broker.terminate(timeout: .seconds(10))
    }

    /// A P-256 private key in PKCS#8 PEM (as Apple's .p8 files are), made by openssl.
    private func makeAPNsKey(at path: String) throws {
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path,
        ]
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw BenchmarkError("openssl could not make a P-256 key") }
    }
}

/// The metrics port of `deliver` on 127.0.0.1.
struct MetricsClient: Sendable {
    let port: Int

    /// The sum of `pushgate_directory_devices` over the platforms.
    func devices() async throws -> Int {
        let (status, body) = await LocalPort.get(port, "/metrics")
        guard status == 200 else { throw BenchmarkError("deliver's /metrics answered \(status)") }
        let lines = body.split(separator: "\n")
        return lines.filter { $0.hasPrefix("pushgate_directory_devices{") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            .reduce(0) { $0 + Int($1) }
    }
}
