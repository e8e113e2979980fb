import ArgumentParser
import Foundation
import PushModel
import PushTranslation

/// `pushgate bench translate`: translation payloads/s on one core over a realistic mix, per kind, with
/// a Foundation JSONSerialization parse+write of the same payloads as the baseline.
struct TranslateBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Translation throughput on one thread; baseline: JSONSerialization round trip of the same bytes.",
        discussion: "For allocations per payload run scripts/bench-allocations.sh (valgrind counts mallocs)."
    )

    @Option(help: "Distinct payloads in the mix.")
    var payloads = 2000

    @Option(help: "Seconds to measure each figure.")
    var seconds = 3.0

    @Option(help: "Translate the mix this many times and exit without timing (for allocation counting).")
    var iterations: Int?

    func run() throws {
        let mix = PayloadMix.payloads(count: payloads)
        let translator = Translator()
        let records = mix.enumerated().map { index, entry in
            InputRecord(
                topic: "push.unified", partition: 0, offset: Int64(index), key: Array("user-\(index)".utf8),
                value: entry.bytes, headers: [RecordHeader(name: "trace-id", text: "t\(index)")],
                timestampMs: 1_700_000_000_000)
        }
        if let iterations {
            var produced = 0
            for _ in 0..<iterations { for record in records { produced &+= translator.translate(record, readAtMs: 0).count } }
            print("translated \(iterations * records.count) payloads into \(produced) records")
            return
        }
        let averageBytes = mix.map(\.bytes.count).reduce(0, +) / max(mix.count, 1)
        print("mix: \(mix.count) payloads, average \(averageBytes) bytes; one thread; \(seconds) s per figure")
        let all = measure(records, translator: translator)
        print(String(format: "pushgate translate, whole mix:     %10.0f payloads/s  (%.2f µs each)", all, 1e6 / all))
        for kind in PayloadMix.Kind.allCases {
            let subset = zip(mix, records).filter { $0.0.kind == kind }.map(\.1)
            let rate = measure(subset, translator: translator)
            let name = kind.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)
            print("  \(name)" + String(format: "%16.0f payloads/s", rate))
        }
        let baseline = measureBaseline(mix.map(\.bytes))
        print(String(format: "baseline JSONSerialization parse+write: %6.0f payloads/s", baseline))
        print(String(format: "ratio pushgate / baseline: %.1fx", all / baseline))
    }

    private func measure(_ records: [InputRecord], translator: Translator) -> Double {
        var count = 0
        var sink = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        var now = start
        while now < deadline {
            for record in records { sink &+= translator.translate(record, readAtMs: 0).count }
            count += records.count
            now = DispatchTime.now().uptimeNanoseconds
        }
        if sink == -1 { print(sink) }
        return Double(count) / (Double(now - start) / 1e9)
    }

    private func measureBaseline(_ payloads: [[UInt8]]) -> Double {
        let data = payloads.map { Data($0) }
        var count = 0
        var sink = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        var now = start
        while now < deadline {
            for payload in data {
                if let object = try? JSONSerialization.jsonObject(with: payload),
                    let written = try? JSONSerialization.data(withJSONObject: object)
                {
                    sink &+= written.count
                }
            }
            count += data.count
            now = DispatchTime.now().uptimeNanoseconds
        }
        if sink == -1 { print(sink) }
        return Double(count) / (Double(now - start) / 1e9)
    }
}
