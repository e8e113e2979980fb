import Logging
import Synchronization
import Testing

@testable import PushgateTracing

/// The exporter's warnings: one per interval, saying how many were held back.
@Suite struct WarningThrottleTests {
    @Test func oneWarningPerIntervalWithTheCountHeldBack() async throws {
        let lines = Lines()
        let logger = Logger(label: "test") { _ in LineCollector(lines: lines) }
        let throttle = WarningThrottle(interval: .milliseconds(200))
        for number in 0..<3 { throttle.warn(logger) { "failed \(number)" + $0 } }
        #expect(lines.all == ["failed 0"])
        try await Task.sleep(for: .milliseconds(250))
        throttle.warn(logger) { "failed 3" + $0 }
        #expect(lines.all == ["failed 0", "failed 3 (and 2 like warnings held back)"])
    }
}

private final class Lines: Sendable {
    private let value = Mutex<[String]>([])
    var all: [String] { value.withLock { $0 } }
    func append(_ line: String) { value.withLock { $0.append(line) } }
}

private struct LineCollector: LogHandler {
    let lines: Lines
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { lines.append(event.message.description) }
}
