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

    /// `count` records of payloads of `kinds`, in their shares (the whole mix by default).
    public static func records(count: Int, kinds: [PayloadMix.Kind] = PayloadMix.Kind.allCases) -> [InputRecord] {
        let schedule = PayloadMix.schedule(of: kinds)
        return (0..<count).map { record($0, kind: PayloadMix.kind(at: $0, in: schedule)) }
    }
}
