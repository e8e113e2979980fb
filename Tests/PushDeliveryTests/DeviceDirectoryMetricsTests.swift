import CoreMetrics
import PushDelivery
import Synchronization
import Testing

/// The directory's metrics (SPEC 10.8): devices by platform, ignored directory records.
struct DeviceDirectoryMetricsTests {
    /// Keeps the last value recorded and the sum counted, per `label{dimension values}`.
    final class Captured: MetricsFactory, Sendable {
        let values = Mutex<[String: Int64]>([:])

        final class Handler: CounterHandler, RecorderHandler, Sendable {
            let name: String
            let captured: Captured
            init(_ name: String, _ captured: Captured) { (self.name, self.captured) = (name, captured) }
            func increment(by amount: Int64) { captured.values.withLock { $0[name, default: 0] += amount } }
            func reset() { captured.values.withLock { $0[name] = 0 } }
            func record(_ value: Int64) { captured.values.withLock { $0[name] = value } }
            func record(_ value: Double) { record(Int64(value)) }
        }

        func value(_ name: String) -> Int64? { values.withLock { $0[name] } }

        private func handler(_ label: String, _ dimensions: [(String, String)]) -> Handler {
            Handler(label + (dimensions.isEmpty ? "" : "{\(dimensions.map(\.1).joined(separator: ","))}"), self)
        }
        func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
            handler(label, dimensions)
        }
        func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
            handler(label, dimensions)
        }
        func makeFloatingPointCounter(label: String, dimensions: [(String, String)])
            -> any FloatingPointCounterHandler
        { NOOPMetricsHandler.instance }
        func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
            NOOPMetricsHandler.instance
        }
        func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
            NOOPMetricsHandler.instance
        }
        func destroyCounter(_ handler: any CounterHandler) {}
        func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
        func destroyMeter(_ handler: any MeterHandler) {}
        func destroyRecorder(_ handler: any RecorderHandler) {}
        func destroyTimer(_ handler: any TimerHandler) {}
    }

    @Test func devicesByPlatformAndIgnoredRecordsAreMetrics() {
        let captured = Captured()
        let directory = DeviceDirectory(metricsFactory: captured)
        #expect(captured.value("pushgate_directory_devices{apns}") == 0)
        let parser = DirectoryRecordParser(rules: DirectoryRules(apnsBundleIDGiven: true))
        let token = String(repeating: "ab", count: 32)
        for id in ["a", "b", "c"] {
            directory.apply(
                parser.entry(
                    key: Array(id.utf8),
                    value: Array(#"{"audience":"u","platform":"apns","apns":{"token":"\#(token)"}}"#.utf8)))
        }
        directory.apply(
            parser.entry(
                key: Array("f".utf8), value: Array(#"{"audience":"u","platform":"fcm","fcm":{"token":"t"}}"#.utf8)))
        directory.apply(parser.entry(key: Array("b".utf8), value: nil))
        directory.apply(parser.entry(key: Array("c".utf8), value: Array("{}".utf8)))
        directory.apply(parser.entry(key: nil, value: Array("{}".utf8)))
        #expect(captured.value("pushgate_directory_devices{apns}") == 1)
        #expect(captured.value("pushgate_directory_devices{fcm}") == 1)
        #expect(captured.value("pushgate_directory_devices{webpush}") == 0)
        #expect(captured.value("pushgate_directory_ignored_records_total") == 2)
        #expect(directory.ignoredRecordCount == 2 && directory.deviceCount == 2)
    }
}
