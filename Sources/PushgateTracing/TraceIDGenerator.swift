import Synchronization
import W3CTraceContext

/// New trace and span ids, without a system call each: xoshiro256** seeded once from the system's random
/// source. W3C Trace Context asks ids to be random and unique, not secret; none of them ever guards anything.
final class TraceIDGenerator: Sendable {
    private let state: Mutex<Xoshiro256StarStar>

    /// A generator seeded from the system's random source.
    init() {
        let system = SystemRandomNumberGenerator()
        state = Mutex(Xoshiro256StarStar(seed: system))
    }

    /// A new trace id and a new span id in it (neither all zeros), drawn at once, as big-endian words.
    func traceAndSpanWords() -> (trace: (high: UInt64, low: UInt64), span: UInt64) {
        var words = (UInt64(0), UInt64(0), UInt64(0))
        while words.0 | words.1 == 0 || words.2 == 0 { words = state.withLock { ($0.next(), $0.next(), $0.next()) } }
        return ((words.0, words.1), words.2)
    }

    /// A new span id (never all zero) as a big-endian word.
    func spanWord() -> UInt64 {
        var word = UInt64(0)
        while word == 0 { word = state.withLock { $0.next() } }
        return word
    }

    /// The trace id whose big-endian words are `words`.
    static func traceID(_ words: (UInt64, UInt64)) -> TraceID {
        var bytes: TraceID.Bytes = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { buffer in
            buffer.storeBytes(of: words.0.bigEndian, toByteOffset: 0, as: UInt64.self)
            buffer.storeBytes(of: words.1.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return TraceID(bytes: bytes)
    }

    /// A new span id (never all zeros).
    func spanID() -> SpanID { Self.spanID(spanWord()) }

    /// The span id whose big-endian word is `word`.
    static func spanID(_ word: UInt64) -> SpanID {
        var bytes: SpanID.Bytes = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { $0.storeBytes(of: word.bigEndian, as: UInt64.self) }
        return SpanID(bytes: bytes)
    }
}

/// xoshiro256** (Blackman and Vigna): 256 bits of state, a 64-bit output per step.
struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
    private var s: (UInt64, UInt64, UInt64, UInt64)

    /// A generator whose state is four words of `seed` (never all zeros).
    init(seed: some RandomNumberGenerator) {
        var seed = seed
        repeat { s = (seed.next(), seed.next(), seed.next(), seed.next()) } while s == (0, 0, 0, 0)
    }

    mutating func next() -> UInt64 {
        let result = (s.1 &* 5).rotatedLeft(by: 7) &* 9
        let t = s.1 << 17
        s.2 ^= s.0
        s.3 ^= s.1
        s.1 ^= s.2
        s.0 ^= s.3
        s.2 ^= t
        s.3 = s.3.rotatedLeft(by: 45)
        return result
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(by count: UInt64) -> UInt64 {
        self << count | self >> (64 - count)
    }
}
