import Benchmark
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
        for index in 0..<DirectoryRecords.count {
            let (key, value) = DirectoryRecords.record(index)
            directory.apply(parser.entry(key: key, value: value))
        }
        benchmark.stopMeasurement()
        precondition(directory.deviceCount == DirectoryRecords.count, "every record is a device")
        blackHole(directory)
    }
}

/// The benchmark's directory records, made one at a time.
enum DirectoryRecords {
    static let count = 1_000_000

    static let p256dh = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let auth = "AAECAwQFBgcICQoLDA0ODw"

    /// Record `index`: key `device-INDEX`, audience `user-INDEX/2`, a token unique to the device.
    static func record(_ index: Int) -> (key: [UInt8], value: [UInt8]) {
        let unique = String(index, radix: 16)
        let value: String
        switch index % 10 {
        case 0..<6:
            let token = String(repeating: "0", count: 64 - unique.count) + unique
            value =
                #"{"audience":"user-\#(index / 2)","platform":"apns","app":"com.example.shop.ios","#
                + #""apns":{"token":"\#(token)"}}"#
        case 6..<9:
            let token = "fMEGbq3V0kU:APA91b" + String(repeating: "x", count: 145 - unique.count) + unique
            value = #"{"audience":"user-\#(index / 2)","platform":"fcm","fcm":{"token":"\#(token)"}}"#
        default:
            value =
                #"{"audience":"user-\#(index / 2)","platform":"webpush","webpush":{"subscription":{"#
                + #""endpoint":"https://fcm.googleapis.com/fcm/send/\#(unique)","#
                + #""keys":{"p256dh":"\#(p256dh)","auth":"\#(auth)"}}}}"#
        }
        return (Array("device-\(index)".utf8), Array(value.utf8))
    }
}
