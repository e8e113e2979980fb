import ArgumentParser
import BenchProcess
import Foundation
import Logging
import PushgateKafka

/// Delivery against the ceiling of the machine: `pushgate deliver` sending records to their devices through
/// Debian's nginx (HTTP/2, TLS, answering at once), against a Python peer and h2load sending the same requests
/// to the same nginx in the same run (docs/performance.md, "Delivery").
@main
struct DeliveryBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delivery-benchmark",
        abstract: "pushgate deliver against nginx (HTTP/2, TLS), a Python peer and h2load: CPU per send, sends/s.",
        discussion: """
            Makes a CA, keys and nginx's certificate (Benchmarks/scripts/delivery_fixture.py), starts nginx \
            unprivileged from a configuration in a directory of its own, `pushgate broker`, and writes the \
            device directory (--records' audiences, --devices-per-record devices each, per platform). Then, for \
            each platform: `pushgate deliver` sends --records records to their devices (CPU of deliver and of \
            nginx's worker from the first record written to the last outcome), then the same records at half \
            that rate for --latency-seconds (record timestamp to nginx's log line: p50, p99); the Python peer \
            (Benchmarks/scripts/delivery_peer.py: asyncio, httpx over HTTP/2, pywebpush's encryption) sends the \
            same records to the same devices; h2load sends as many of the same requests. Ends with one line per \
            platform for scripts: `delivery PLATFORM: ...`, the ratios against the goals. Exits 1 when any \
            request was not answered with a 2xx.
            """)

    @Option(help: "The pushgate executable (its `broker`, `devices` and `deliver`).")
    var pushgate = ".build/release/pushgate"

    @Option(help: "Records per platform.")
    var records = 2_000

    @Option(help: "Devices of each record's audience.")
    var devicesPerRecord = 10

    @Option(help: "Audiences per platform (records cycle over them); default: --records, at most 500.")
    var audiences: Int?

    @Option(help: "The platforms, comma-separated: apns, fcm, webpush.")
    var platforms = "apns,fcm,webpush"

    @Option(help: "Seconds of the latency run at half the measured rate (0: none).")
    var latencySeconds = 10.0

    @Option(help: "The Python interpreter of the peer and the fixture script (a name is looked up in PATH).")
    var python = "python3"

    @Option(help: "The folder of delivery_peer.py and delivery_fixture.py.")
    var scripts = "Benchmarks/scripts"

    @Option(help: "nginx (Debian's nginx-light or nginx).")
    var nginx = "/usr/sbin/nginx"

    @Option(help: "h2load (Debian's nghttp2-client).")
    var h2load = "/usr/bin/h2load"

    @Option(help: "Seconds any one contender may take.")
    var timeout = 600

    @Option(name: .customLong("deliver-option"), help: "A further option of `pushgate deliver` (repeatable).")
    var deliverOptions: [String] = []

    @Flag(help: "Keep the run's directory (nginx's configuration and logs, keys, outputs) and print its path.")
    var keep = false

    func validate() throws {
        guard records > 0, devicesPerRecord > 0 else { throw ValidationError("--records and --devices-per-record > 0") }
        guard !platformList.isEmpty, platformList.allSatisfy({ ["apns", "fcm", "webpush"].contains($0) }) else {
            throw ValidationError("--platforms: a list of apns, fcm, webpush")
        }
    }

    var platformList: [String] { platforms.split(separator: ",").map { String($0) } }

    func run() async throws {
        var logger = Logger(label: "delivery-benchmark")
        logger.logLevel = .error
        for executable in [pushgate, nginx, h2load] where !FileManager.default.isExecutableFile(atPath: executable) {
            throw BenchmarkError("no executable at \(executable) (make bench-delivery installs nginx and h2load)")
        }
        let python = try Self.inPath(self.python)
        let directory = try makeDirectory()
        defer { if !keep { try? FileManager.default.removeItem(atPath: directory) } }
        let port = try LocalPort.free()
        let workloads = platformList.map {
            Workload(
                platform: $0, records: records, devicesPerRecord: devicesPerRecord,
                audiences: audiences ?? min(records, 500), nginxPort: port)
        }
        try Data(
            Workload(platform: "webpush", records: 1, devicesPerRecord: 1, audiences: 1, nginxPort: port).value.utf8
        )
        .write(to: URL(fileURLWithPath: "\(directory)/webpush-value.json"))
        let fixtureRun = try await TimedCommand.run(
            python, ["\(scripts)/delivery_fixture.py", "--out", directory, "--port", String(port)],
            directory: directory, name: "fixture")
        guard fixtureRun.status == 0 else { throw BenchmarkError("delivery_fixture.py failed: \(fixtureRun.output)") }
        let fixture = try Fixture(directory: directory)

        let server = try await Nginx.start(executable: nginx, directory: directory, port: port)
        let broker = try ChildProcess(pushgate, arguments: ["broker", "--partitions", "8"], captureOutput: true)
        defer {
            broker.forceStop()
            server.forceStop()
        }
        let servers = try await broker.nextLine()
        try await putDevices(workloads.flatMap { $0.deviceLines(fixture) }, servers: servers, directory: directory)
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                bootstrapServers: servers, properties: ["linger.ms": "5", "enable.idempotence": "false", "acks": "1"]),
            logger: logger)
        say(
            "delivery-benchmark: \(records) records x \(devicesPerRecord) devices per platform; nginx \(port) "
                + "(one worker), broker \(servers)\(keep ? ", files in \(directory)" : "")")

        var reports: [DeliveryReport] = []
        for workload in workloads {
            let run = DeliverRun(
                pushgate: pushgate, servers: servers, workload: workload, fixture: fixture, nginx: server,
                producer: producer, timeout: .seconds(timeout), options: deliverOptions, logger: logger)
            let (process, metrics) = try await run.start()
            defer { process.forceStop() }
            var deliver = try await run.throughput(process, metrics)
            DeliveryReport(platform: workload.platform, deliver: deliver).printDeliver()
            // deliver stays up, idle, while the others send: its records are all final, its offsets committed.
            let peer = try await PeerRun(
                python: python, script: "\(scripts)/delivery_peer.py", servers: servers, workload: workload,
                fixture: fixture, nginx: server, timeout: .seconds(timeout)
            ).measure()
            DeliveryReport.printContender(workload.platform, "python peer", peer, unit: "send")
            let floor = try await H2loadRun(h2load: h2load, workload: workload, fixture: fixture, nginx: server)
                .measure()
            DeliveryReport.printContender(workload.platform, "h2load", floor, unit: "request")
            if latencySeconds > 0, workload.hasLatencyTag {
                let latency = try await run.latency(
                    rate: deliver.sendsPerSecond / 2, seconds: latencySeconds, process, metrics)
                deliver.latency = latency
                DeliveryReport.printLatency(workload.platform, latency)
            }
            _ = await process.terminate(timeout: .seconds(20))
            reports.append(DeliveryReport(platform: workload.platform, deliver: deliver, peer: peer, h2load: floor))
        }
        await producer.shutdown()
        say("")
        for report in reports { say(report.summary) }
        _ = await broker.terminate(timeout: .seconds(10))
        await server.stop()
        let unanswered = reports.flatMap(\.unanswered)
        guard unanswered.isEmpty else { throw BenchmarkError("not every request was answered: \(unanswered)") }
    }

    /// `name` itself when it has a slash, else the first executable of that name in PATH.
    static func inPath(_ name: String) throws -> String {
        if name.contains("/") { return name }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)")
        {
            return "\(folder)/\(name)"
        }
        throw BenchmarkError("no \(name) in PATH")
    }

    private func makeDirectory() throws -> String {
        let template = NSTemporaryDirectory() + "/delivery-benchmark-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw BenchmarkError("cannot make a directory in \(template)") }
        return String(cString: made)
    }

    /// `pushgate devices put` of the directory's lines.
    private func putDevices(_ lines: [String], servers: String, directory: String) async throws {
        let file = "\(directory)/devices.jsonl"
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        let put = try await TimedCommand.run(
            pushgate, ["devices", "put", file, "--bootstrap-servers", servers], directory: directory, name: "put")
        guard put.status == 0 else { throw BenchmarkError("pushgate devices put failed: \(put.output)") }
    }
}
