import BenchSupport
import Benchmark
import Foundation
import PushModel
import PushTranslation

/// Translation on one thread: the whole payload mix, each kind of payload alone, and the tokenizer pass
/// over the mix's bytes (the reference `make bench` divides by). One iteration translates the 1,000
/// records of its set once (`scalingFactor: .kilo`: `--scale` shows figures per payload).
///
/// Allocation counts (`mallocCountTotal`, from the library's malloc interposer) are deterministic:
/// `Thresholds/` holds them and `make bench-check` (part of `make test`) checks them, exactly.
/// Times are never checked; for the check alone (`PUSHGATE_BENCH_ALLOCATIONS_ONLY` set), each benchmark
/// runs a few iterations, since every iteration allocates the same.
let benchmarks: @Sendable () -> Void = {
    let allocationsOnly = ProcessInfo.processInfo.environment["PUSHGATE_BENCH_ALLOCATIONS_ONLY"] != nil
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: allocationsOnly ? .milliseconds(200) : .seconds(2),
        maxIterations: allocationsOnly ? 10 : 10_000,
        thresholds: [.mallocCountTotal: .strict]
    )
    let translator = Translator()

    for set in TranslateSet.all {
        let records = set.records
        Benchmark("translate-\(set.name)") { benchmark in
            for record in records {
                blackHole(translator.translate(record, readAtMs: 0))
            }
        }
    }

    let mix = TranslateSet.mix.records.map(\.value)
    Benchmark("tokenizer-pass-mix") { benchmark in
        for bytes in mix {
            blackHole(bytes.withUnsafeBufferPointer(TokenizerPass.countTokens))
        }
    }
}

/// A set of input records one iteration translates.
struct TranslateSet {
    /// `mix`, or a kind of payload.
    let name: String
    let records: [InputRecord]

    /// How many payloads a set has: the benchmarks' scaling factor (`.kilo`), and 10 periods of the
    /// mix's schedule, so that its kinds come in their shares.
    static let count = 1000

    static var mix: TranslateSet { TranslateSet(name: "mix", records: BenchInput.records(count: count)) }

    /// The mix, then each kind alone.
    static var all: [TranslateSet] {
        [mix]
            + PayloadMix.Kind.allCases.map {
                TranslateSet(name: $0.rawValue, records: BenchInput.records(count: count, kinds: [$0]))
            }
    }
}
