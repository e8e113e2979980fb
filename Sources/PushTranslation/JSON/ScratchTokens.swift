#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A token array kept per thread and reused by every translation on that thread, so that scanning a
/// payload allocates nothing once the array has grown to the payloads' size. Translation is
/// synchronous: the array never crosses threads. Arrays grown past ``retainedCapacity`` tokens (a huge
/// payload) are released after use.
enum ScratchTokens {
    /// The largest array kept between translations, in tokens (1 MiB of tokens).
    static let retainedCapacity = 1 << 16

    private final class Scratch {
        var tokens = ContiguousArray<JSONToken>()
        var inUse = false
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        return key
    }()

    /// Calls `body` with this thread's token array (a fresh one if it is already in use).
    static func with<Result>(_ body: (inout ContiguousArray<JSONToken>) -> Result) -> Result {
        let scratch: Scratch
        if let pointer = pthread_getspecific(key),
            let existing = Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? Scratch
        {
            scratch = existing
        } else {
            scratch = Scratch()
            pthread_setspecific(key, Unmanaged<AnyObject>.passRetained(scratch).toOpaque())
        }
        guard !scratch.inUse else {
            var tokens = ContiguousArray<JSONToken>()
            return body(&tokens)
        }
        scratch.inUse = true
        defer {
            scratch.inUse = false
            if scratch.tokens.capacity > retainedCapacity { scratch.tokens = [] }
        }
        return body(&scratch.tokens)
    }
}
