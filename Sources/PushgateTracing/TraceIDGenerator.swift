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

    /// A new trace id (never all zeros).
    func traceID() -> TraceID {
        state.withLock { generator in
            var id = TraceID.random(using: &generator)
            while id == .null { id = TraceID.random(using: &generator) }
            return id
        }
    }

    /// A new span id (never all zeros).
    func spanID() -> SpanID {
        state.withLock { generator in
            var id = SpanID.random(using: &generator)
            while id == .null { id = SpanID.random(using: &generator) }
            return id
        }
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
