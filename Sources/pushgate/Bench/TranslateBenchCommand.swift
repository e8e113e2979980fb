import ArgumentParser
import Foundation
import PushModel
import PushTranslation

/// `pushgate bench translate`: translation payloads/s on one core over a realistic mix, per kind, with
/// two baselines measured in the same run: Foundation JSONSerialization parse+write of the same payloads,
/// and the floor, a minimal tokenizer's single pass over the same bytes.
struct TranslateBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Translation throughput on one thread against two baselines measured in the same run.",
        discussion: """
            Baselines: Foundation JSONSerialization parse+write of the same payloads, and the floor, one pass \
            of a minimal JSON tokenizer over the same bytes. Figures are medians of --rounds interleaved \
            measurements. Allocations per payload are counted with an LD_PRELOAD malloc counter built from \
            scripts/malloc-count.c when a C compiler is present.
            """
    )

    @Option(help: "Distinct payloads in the mix.")
    var payloads = 2000

    @Option(help: "Seconds to measure each figure in each round.")
    var seconds = 1.0

    @Option(help: "Interleaved rounds; each figure is the median over them.")
    var rounds = 3

    @Option(help: "Translate the mix this many times and exit without timing (for allocation counting).")
    var iterations: Int?

    @Option(help: "With --iterations: translate only payloads of this kind (alert, alertWithActions, carousel, card, invalid).")
    var kind: String?

    @Flag(inversion: .prefixedNo, help: "Count heap allocations per payload (runs this command again under a malloc counter).")
    var allocations = true

    func run() throws {
        let kinds = try kind.map { name in
            guard let kind = PayloadMix.Kind(rawValue: name) else { throw ValidationError("--kind: unknown kind '\(name)'") }
            return [kind]
        } ?? PayloadMix.Kind.allCases
        let mix = PayloadMix.payloads(count: payloads, kinds: kinds)
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
        print("mix: \(mix.count) payloads, average \(averageBytes) bytes; one thread; median of \(rounds) rounds of \(seconds) s")
        let timer = BenchTimer(seconds: seconds)
        var translate: [Double] = []
        var floor: [Double] = []
        var foundation: [Double] = []
        for _ in 0..<max(rounds, 1) {
            translate.append(timer.rate(records.count) { for record in records { timer.consume(translator.translate(record, readAtMs: 0).count) } })
            floor.append(timer.rate(mix.count) { for entry in mix { timer.consume(entry.bytes.withUnsafeBufferPointer(FloorTokenizer.countTokens)) } })
            foundation.append(timer.rate(mix.count) { Self.foundationRoundTrip(mix.map(\.bytes), timer) })
        }
        let all = BenchTimer.median(translate)
        print(String(format: "pushgate translate, whole mix:   %9.0f payloads/s  %6.2f µs each", all, 1e6 / all))
        for kind in PayloadMix.Kind.allCases {
            let subset = zip(mix, records).filter { $0.0.kind == kind }.map(\.1)
            let rate = timer.rate(subset.count) { for record in subset { timer.consume(translator.translate(record, readAtMs: 0).count) } }
            let name = kind.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)
            print("  \(name)" + String(format: "%14.0f payloads/s  %6.2f µs each", rate, 1e6 / rate))
        }
        let floorRate = BenchTimer.median(floor)
        let foundationRate = BenchTimer.median(foundation)
        print(String(format: "floor: minimal tokenizer pass:   %9.0f payloads/s  %6.2f µs each", floorRate, 1e6 / floorRate))
        print(String(format: "baseline JSONSerialization parse+write: %6.0f payloads/s  %6.2f µs each", foundationRate, 1e6 / foundationRate))
        print(String(format: "translate / floor (time per payload): %.1fx", floorRate / all))
        print(String(format: "translate speed / JSONSerialization: %.1fx", all / foundationRate))
        if allocations, let perPayload = AllocationCounter.perPayload(payloads: min(payloads, 1000)) {
            print(String(format: "heap allocations per payload: %.2f (LD_PRELOAD malloc counter, whole mix translated 4 times)", perPayload))
            let perKind = PayloadMix.Kind.allCases.compactMap { kind in
                AllocationCounter.perPayload(payloads: 200, kind: kind.rawValue).map { String(format: "%@ %.1f", kind.rawValue, $0) }
            }
            print("  per kind: " + perKind.joined(separator: ", "))
        }
    }

    private static func foundationRoundTrip(_ payloads: [[UInt8]], _ timer: BenchTimer) {
        for payload in payloads {
            if let object = try? JSONSerialization.jsonObject(with: Data(payload)),
                let written = try? JSONSerialization.data(withJSONObject: object)
            {
                timer.consume(written.count)
            }
        }
    }
}
