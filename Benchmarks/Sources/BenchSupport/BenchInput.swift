import PushModel

/// The input records of the benchmarks, one per index: payload `index` of the mix (``PayloadMix``),
/// the key `user-N` and one `trace-id` header. The translation benchmarks translate them as read at
/// partition 0, offset N; the pipeline benchmark writes them to its input topic.
public enum BenchInput {
    private static let schedule = PayloadMix.schedule()

    /// The record of `index` of the whole mix, in `topic`, as if read at partition 0, offset `index`.
    public static func record(_ index: Int, topic: String = "push.unified") -> InputRecord {
        record(index, kind: PayloadMix.kind(at: index, in: schedule), topic: topic)
    }

    /// The record of `index` with a payload of `kind`, in `topic`, as if read at partition 0, offset `index`.
    public static func record(_ index: Int, kind: PayloadMix.Kind, topic: String = "push.unified") -> InputRecord {
        InputRecord(
            topic: topic, partition: 0, offset: Int64(index), key: Array("user-\(index)".utf8),
            value: Array(PayloadMix.payload(kind, index).utf8),
            headers: [RecordHeader(name: "trace-id", text: "t\(index)")],
            timestampMs: 1_700_000_000_000)
    }

    /// The `traceparent` a producer that traces would write on input `index`: ids derived from the index (the same
    /// in every run), flags `01` on a `sampledShare` of the inputs, spread evenly (1: all, 0.01: one in a hundred,
    /// 0: none).
    public static func traceparent(_ index: Int, sampledShare: Double) -> String {
        let word = { (seed: UInt64) -> String in
            // splitmix64: distinct, well-mixed ids, never all zeros for these seeds.
            var z = seed &+ 0x9e37_79b9_7f4a_7c15
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            let hex = String(z ^ (z >> 31) | 1, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }
        let seed = UInt64(index) &* 3
        // Sampled where the running count of sampled inputs, index × share rounded down, steps up: the share of
        // any run of indices, to within one.
        let sampled = Int(Double(index + 1) * sampledShare) > Int(Double(index) * sampledShare)
        return "00-\(word(seed))\(word(seed + 1))-\(word(seed + 2))-\(sampled ? "01" : "00")"
    }

    /// `count` records of payloads of `kinds`, in their shares (the whole mix by default).
    public static func records(count: Int, kinds: [PayloadMix.Kind] = PayloadMix.Kind.allCases) -> [InputRecord] {
        let schedule = PayloadMix.schedule(of: kinds)
        return (0..<count).map { record($0, kind: PayloadMix.kind(at: $0, in: schedule)) }
    }
}
