import W3CTraceContext

/// The sampling decision of OpenTelemetry's standard samplers (`OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`),
/// taken by pushgate before any span is made: a record that is not sampled costs no span at all, only its ids
/// (SPEC section 11).
public struct TraceSampler: Sendable, Equatable {
    /// The decision for a span without a parent (and, for the samplers that are not parent-based, every span).
    enum Root: Sendable, Equatable {
        case always
        case never
        /// Sampled when the trace id's last 8 bytes, read big-endian and shifted right by one, are below this
        /// bound (`ratio` × 2⁶³): the same decision for the same trace in every process.
        case ratio(bound: UInt64)
    }

    let root: Root
    /// Whether a parent's `sampled` flag decides (the `parentbased_` samplers).
    let followsParent: Bool

    /// The sampler `settings` name.
    public init(_ settings: TracingSettings) {
        let name = settings.sampler
        followsParent = name.hasPrefix("parentbased_")
        switch followsParent ? String(name.dropFirst("parentbased_".count)) : name {
        case "always_off": root = .never
        case "traceidratio": root = Self.ratio(settings.samplerArgument ?? 1)
        default: root = .always
        }
    }

    private static func ratio(_ ratio: Double) -> Root {
        if ratio <= 0 { return .never }
        if ratio >= 1 { return .always }
        return .ratio(bound: UInt64(ratio * Double(UInt64(1) << 63)))
    }

    /// Whether the span of a record in trace `traceID` is sampled; `parentSampled` is the `sampled` flag of the
    /// record's `traceparent`, `nil` when it has none.
    public func isSampled(traceID: TraceID, parentSampled: Bool?) -> Bool {
        let low = withUnsafeBytes(of: traceID.bytes) {
            UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
        return isSampled(traceLow: low, parentSampled: parentSampled)
    }

    /// Whether the span of a record whose parent is `parent` is sampled (its trace id read only when the decision
    /// takes it).
    func isSampled(parent: TraceParent) -> Bool {
        if followsParent { return parent.sampled }
        guard case .ratio = root else { return root == .always }
        return isSampled(traceLow: parent.traceLow, parentSampled: nil)
    }

    /// Whether the span of a record in the trace whose last 8 bytes, read big-endian, are `traceLow` is sampled;
    /// `parentSampled` as in ``isSampled(traceID:parentSampled:)``.
    func isSampled(traceLow: UInt64, parentSampled: Bool?) -> Bool {
        if followsParent, let parentSampled { return parentSampled }
        switch root {
        case .always: return true
        case .never: return false
        case .ratio(let bound): return traceLow >> 1 < bound
        }
    }
}
