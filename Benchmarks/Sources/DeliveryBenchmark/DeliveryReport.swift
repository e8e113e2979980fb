import Foundation

/// One platform's figures and their ratios against the goals of docs/performance.md ("Delivery").
struct DeliveryReport {
    let platform: String
    let deliver: DeliverFigures
    var peer = ContenderFigures()
    var h2load = ContenderFigures()

    /// deliver's sends per second over the Python peer's: at least 10.
    static let peerGoal = 10.0

    /// deliver's CPU per send over nginx's per answer: at most 2 for APNs, 4 for web push (its encryption);
    /// no goal for FCM.
    var nginxGoal: Double? { ["apns": 2.0, "webpush": 4.0][platform] }

    static func microseconds(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1e6) }
    static func rate(_ value: Double) -> String { String(Int(value.rounded())) }
    static func ratio(_ value: Double) -> String { String(format: "%.2f", value) }

    func printDeliver() {
        let statuses = deliver.statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(
            separator: ", ")
        say(
            "delivery: \(platform) deliver: \(deliver.sends) sends in \(String(format: "%.2f", deliver.seconds)) s, "
                + "\(Self.rate(deliver.sendsPerSecond)) sends/s, \(Self.microseconds(deliver.cpuPerSend)) us CPU per "
                + "send (\(Self.ratio(deliver.cpuSeconds / deliver.seconds)) cores); nginx "
                + "\(Self.microseconds(deliver.nginxCPUPerAnswer)) us CPU per answer; requests by status: \(statuses)")
    }

    static func printLatency(_ platform: String, _ latency: LatencyFigures) {
        say(
            "delivery: \(platform) latency at \(rate(latency.sendsPerSecond)) sends/s for "
                + "\(String(format: "%.0f", latency.seconds)) s: p50 \(String(format: "%.1f", latency.p50Ms)) ms, "
                + "p99 \(String(format: "%.1f", latency.p99Ms)) ms, max \(String(format: "%.1f", latency.maxMs)) ms "
                + "(\(latency.requests) of \(latency.expected) requests logged)")
    }

    static func printContender(_ platform: String, _ name: String, _ figures: ContenderFigures, unit: String) {
        say(
            "delivery: \(platform) \(name): \(figures.requests) \(unit)s in \(String(format: "%.2f", figures.seconds)) s, "
                + "\(rate(figures.requestsPerSecond)) \(unit)s/s, \(microseconds(figures.cpuPerRequest)) us "
                + "CPU per \(unit); nginx \(microseconds(figures.nginxCPUPerAnswer)) us CPU per answer; "
                + "2xx answers: \(figures.answered)")
    }

    /// The line for scripts: the ratios of one run.
    var summary: String {
        let peerRatio = deliver.sendsPerSecond / peer.requestsPerSecond
        let nginxRatio = deliver.cpuPerSend / deliver.nginxCPUPerAnswer
        let goal = nginxGoal.map { " (goal <= \(String(format: "%.0f", $0))x)" } ?? " (no goal)"
        var line =
            "delivery \(platform): \(Self.rate(deliver.sendsPerSecond)) sends/s, "
            + "\(Self.microseconds(deliver.cpuPerSend)) us CPU per send; \(Self.ratio(peerRatio))x the Python peer's "
            + "sends/s (goal >= \(String(format: "%.0f", Self.peerGoal))x), the peer's CPU per send "
            + "\(Self.ratio(peer.cpuPerRequest / deliver.cpuPerSend))x deliver's; deliver CPU per send "
            + "\(Self.ratio(nginxRatio))x nginx's per answer\(goal), \(Self.ratio(deliver.cpuPerSend / h2load.cpuPerRequest))x "
            + "h2load's per request"
        if let latency = deliver.latency {
            line +=
                "; latency p50 \(String(format: "%.1f", latency.p50Ms)) ms, p99 \(String(format: "%.1f", latency.p99Ms)) ms"
        }
        return line
    }

    /// What was not answered with a 2xx, by contender.
    var unanswered: [String] {
        var missing: [String] = []
        let deliverAnswered = deliver.statuses.filter { $0.key.hasPrefix("2") }.values.reduce(0, +)
        if deliver.delivered != deliver.sends || deliverAnswered != deliver.sends {
            missing.append(
                "\(platform) deliver: \(deliver.delivered) delivered of \(deliver.sends), \(deliver.statuses)")
        }
        if let latency = deliver.latency, latency.requests != latency.expected {
            missing.append("\(platform) latency: \(latency.requests) of \(latency.expected) requests logged by nginx")
        }
        if peer.answered != deliver.sends { missing.append("\(platform) python peer: \(peer.answered) 2xx") }
        if h2load.answered != deliver.sends { missing.append("\(platform) h2load: \(h2load.answered) 2xx") }
        return missing
    }
}

/// Writes a line to standard output at once (`print` buffers it when the output is a pipe, as under `tee`).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
