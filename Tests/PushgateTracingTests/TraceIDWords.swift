import W3CTraceContext

@testable import PushgateTracing

/// The words pushgate's trace headers are written from (``TraceHeaders/init(traceID:spanID:sampled:tracestate:)``),
/// taken from W3CTraceContext's ids: to compare with what W3CTraceContext writes.
extension RecordTracer {
    /// A trace id as two big-endian words.
    static func words(of id: TraceID) -> (high: UInt64, low: UInt64) {
        withUnsafeBytes(of: id.bytes) {
            (
                UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)),
                UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
    }

    /// A span id as a big-endian word.
    static func word(of id: SpanID) -> UInt64 {
        withUnsafeBytes(of: id.bytes) { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
    }
}
