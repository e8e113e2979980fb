import BenchProcess
import Foundation
import Logging
import PushgateKafka

/// What `pushgate deliver` did with one platform's records: its CPU from before the first record was written
/// to the last outcome, and nginx's over the same time.
struct DeliverFigures {
    var sends = 0
    var seconds = 0.0
    var cpuSeconds = 0.0
    var nginxCPUSeconds = 0.0
    /// Requests by HTTP status (`none`: no answer), from deliver's metrics.
    var statuses: [String: Int] = [:]
    var delivered = 0
    var latency: LatencyFigures?

    var sendsPerSecond: Double { Double(sends) / seconds }
    var cpuPerSend: Double { cpuSeconds / Double(sends) }
    var nginxCPUPerAnswer: Double { nginxCPUSeconds / Double(sends) }
}

/// The time from a record's timestamp to nginx's log line of its request, at a steady rate.
struct LatencyFigures {
    var sendsPerSecond = 0.0
    var seconds = 0.0
    var requests = 0
    var expected = 0
    var p50Ms = 0.0
    var p99Ms = 0.0
    var maxMs = 0.0
}

/// One `pushgate deliver` for one platform against nginx: the throughput run, then the latency run.
struct DeliverRun {
    let pushgate: String
    let servers: String
    let workload: Workload
    let fixture: Fixture
    let nginx: Nginx
    let producer: KafkaProducer
    let timeout: Duration
    /// Further options of `pushgate deliver`.
    let options: [String]
    let logger: Logger

    func arguments(metricsPort: Int) -> [String] {
        var arguments = [
            "deliver", "--bootstrap-servers", servers, "--group-id", "bench-deliver-\(workload.platform)",
            "--platforms", workload.platform, "--metrics-port", String(metricsPort), "--log-level", "warning",
            "--ca-file", "\(fixture.directory)/ca.pem",
            // A Kafka broker answers a consumer's fetch as soon as a record arrives; the embedded broker (librdkafka's
            // mock cluster) waits out the fetch's whole wait when it found nothing, so a short wait stands in for the
            // real broker's prompt answer (docs/performance.md, "Delivery").
            "-X", "consumer.fetch.wait.max.ms=10",
        ]
        switch workload.platform {
        case "apns":
            arguments += [
                "--apns-key-file", "\(fixture.directory)/apns.p8", "--apns-key-id", fixture.apnsKeyID,
                "--apns-team-id", fixture.apnsTeamID, "--apns-endpoint", workload.origin,
                "--apns-sandbox-endpoint", workload.origin,
            ]
        case "fcm":
            arguments += [
                "--fcm-credentials", "\(fixture.directory)/service-account.json", "--fcm-endpoint", workload.origin,
            ]
        default:
            arguments += [
                "--vapid-key", "bench=\(fixture.directory)/vapid.pem", "--vapid-subject", Fixture.vapidSubject,
                "--webpush-allow-host", "127.0.0.1",
            ]
        }
        return arguments + options
    }

    /// Starts `pushgate deliver` and waits until it is ready (the directory read, its partitions assigned).
    func start() async throws -> (ChildProcess, DeliverMetrics) {
        let metricsPort = try LocalPort.free()
        let deliver = try ChildProcess(pushgate, arguments: arguments(metricsPort: metricsPort), captureOutput: false)
        let readyBy = ContinuousClock.now + .seconds(60)
        while await LocalPort.get(metricsPort, "/ready").status != 200 {
            guard deliver.isRunning, ContinuousClock.now < readyBy else {
                deliver.forceStop()
                throw BenchmarkError("pushgate deliver (\(workload.platform)) was not ready within 60 s")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return (deliver, DeliverMetrics(port: metricsPort))
    }

    /// Writes the records and waits for every outcome: deliver's CPU and nginx's from before the first record
    /// was written to the last outcome counted.
    func throughput(_ deliver: ChildProcess, _ metrics: DeliverMetrics) async throws -> DeliverFigures {
        var figures = DeliverFigures(sends: workload.sends)
        let cpuBefore = deliver.cpuSeconds() ?? 0
        let nginxBefore = nginx.workerCPUSeconds()
        let started = ContinuousClock.now
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let receiver = Acknowledgements()
        for number in 0..<workload.records {
            try await producer.produceWhenQueued(
                workload.record(number, timestampMs: now, tagged: false), to: receiver)
        }
        try await producer.flush(timeout: .seconds(60))
        if let failure = receiver.failure { throw BenchmarkError("writing the records failed: \(failure)") }
        try await metrics.waitForOutcomes(workload.sends, by: started + timeout, deliver: deliver)
        figures.seconds = (ContinuousClock.now - started).seconds
        figures.cpuSeconds = (deliver.cpuSeconds() ?? 0) - cpuBefore
        figures.nginxCPUSeconds = nginx.workerCPUSeconds() - nginxBefore
        let counts = await metrics.read()
        figures.statuses = counts.statuses
        figures.delivered = counts.delivered
        return figures
    }

    /// Writes tagged records at `rate` sends per second for `seconds`, waits for their outcomes, and
    /// reads nginx's log of their requests.
    func latency(rate: Double, seconds latencySeconds: Double, _ deliver: ChildProcess, _ metrics: DeliverMetrics)
        async throws -> LatencyFigures
    {
        let before = await metrics.read().outcomes
        let recordsPerSecond = max(1, rate / Double(workload.devicesPerRecord))
        let total = max(1, Int(recordsPerSecond * latencySeconds))
        let receiver = Acknowledgements()
        let started = ContinuousClock.now
        for number in 0..<total {
            // Steady: record `number` is written at number / recordsPerSecond seconds, stamped with that moment.
            let due = started + .seconds(Double(number) / recordsPerSecond)
            if due > ContinuousClock.now { try await Task.sleep(until: due) }
            let stamp = Int64(Date().timeIntervalSince1970 * 1000)
            try await producer.produceWhenQueued(
                workload.record(workload.records + number, timestampMs: stamp, tagged: true), to: receiver)
        }
        try await producer.flush(timeout: .seconds(60))
        let expected = total * workload.devicesPerRecord
        try await metrics.waitForOutcomes(before + expected, by: ContinuousClock.now + timeout, deliver: deliver)
        var figures = LatencyFigures(
            sendsPerSecond: recordsPerSecond * Double(workload.devicesPerRecord), seconds: latencySeconds,
            expected: expected)
        let log = (try? String(contentsOfFile: nginx.latencyLog, encoding: .utf8)) ?? ""
        var latencies: [Double] = []
        for line in log.split(separator: "\n") {
            // "$msec $http_apns_collapse_id $http_topic": the tag in one of the two, "-" in the other.
            let parts = line.split(separator: " ")
            guard parts.count == 3, let logged = Double(parts[0]),
                let tag = parts.dropFirst().first(where: { $0.hasPrefix("t") }), let stamp = Double(tag.dropFirst())
            else { continue }
            latencies.append(logged * 1000 - stamp)
        }
        // The log is shared by the platforms: this run's lines are its last `expected`.
        latencies = Array(latencies.suffix(expected)).sorted()
        figures.requests = latencies.count
        guard !latencies.isEmpty else { return figures }
        func percentile(_ fraction: Double) -> Double {
            latencies[min(latencies.count - 1, Int((Double(latencies.count) * fraction).rounded(.up)) - 1)]
        }
        figures.p50Ms = percentile(0.5)
        figures.p99Ms = percentile(0.99)
        figures.maxMs = latencies.last ?? 0
        return figures
    }
}

/// deliver's `/metrics`: outcomes and requests by status.
struct DeliverMetrics {
    let port: Int

    struct Counts {
        var outcomes = 0
        var delivered = 0
        var statuses: [String: Int] = [:]
    }

    func read() async -> Counts {
        var counts = Counts()
        for line in await LocalPort.get(port, "/metrics").body.split(separator: "\n") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            if line.hasPrefix("pushgate_deliver_outcomes_total{") {
                counts.outcomes += Int(value)
                if line.contains(#"outcome="delivered""#) { counts.delivered += Int(value) }
            } else if line.hasPrefix("pushgate_deliver_requests_total{"),
                let start = line.range(of: #"status=""#),
                let end = line[start.upperBound...].firstIndex(of: "\"")
            {
                counts.statuses[String(line[start.upperBound..<end]), default: 0] += Int(value)
            }
        }
        return counts
    }

    /// Polls every 20 ms until deliver counts `outcomes` outcomes.
    func waitForOutcomes(_ outcomes: Int, by deadline: ContinuousClock.Instant, deliver: ChildProcess) async throws {
        while true {
            let counts = await read()
            if counts.outcomes >= outcomes { return }
            guard deliver.isRunning, ContinuousClock.now < deadline else {
                throw BenchmarkError(
                    "pushgate deliver counted \(counts.outcomes) of \(outcomes) outcomes in time; requests by status: "
                        + "\(counts.statuses)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
