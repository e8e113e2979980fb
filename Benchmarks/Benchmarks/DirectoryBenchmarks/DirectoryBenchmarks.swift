import Benchmark
import DirectoryRecords
import PushDelivery

/// The device directory at the size one `pushgate deliver` must hold (SPEC 10.1, docs/deliver.md):
/// 1,000,000 directory records checked as the reader checks them and applied to a `DeviceDirectory`,
/// in one iteration. The mix: 60% APNs devices (64-digit tokens, an `app`), 30% FCM (163-character tokens), 10% web
/// push subscriptions; two devices per audience. Peak resident memory is the process's: the records are
/// made one at a time, so it is the directory's, plus the benchmark's own.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
        warmupIterations: 0,
        maxDuration: .seconds(600),
        maxIterations: 1
    )

    Benchmark("directory-load-1m") { benchmark in
        let directory = DeviceDirectory()
        let parser = DirectoryRecordParser(rules: DirectoryRules(apnsBundleIDGiven: true))
        benchmark.startMeasurement()
        for index in 0..<DirectoryRecords.defaultCount {
            let (key, value) = DirectoryRecords.record(index)
            directory.apply(parser.entry(key: key, value: value))
        }
        benchmark.stopMeasurement()
        precondition(directory.deviceCount == DirectoryRecords.defaultCount, "every record is a device")
        blackHole(directory)
    }
}
