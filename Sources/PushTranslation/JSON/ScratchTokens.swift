#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A token buffer kept per thread and reused by every translation on that thread, so that scanning a
/// payload allocates nothing once the buffer has grown to the payloads' size. Translation is
/// synchronous: the buffer never crosses threads. Buffers grown past ``retainedCapacity`` tokens (a huge
/// payload) are released after use.
enum ScratchTokens {
    /// The largest buffer kept between translations, in tokens (1 MiB of tokens).
    static let retainedCapacity = 1 << 16

    fileprivate final class Scratch {
        var tokens = UnsafeMutablePointer<JSONToken>.allocate(capacity: 1024)
        var tokenCapacity = 1024
        var inUse = false
        var bytes = ScratchBytes.Buffer(start: .allocate(capacity: 4096), capacity: 4096)
        var bytesInUse = false

        deinit {
            tokens.deallocate()
            bytes.start.deallocate()
        }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        return key
    }()

    /// This thread's scratch storage.
    fileprivate static func current() -> Scratch {
        let scratch: Scratch
        if let pointer = pthread_getspecific(key) {
            // Only this file sets the key, always to a retained Scratch.
            scratch = Unmanaged<Scratch>.fromOpaque(pointer).takeUnretainedValue()
        } else {
            scratch = Scratch()
            pthread_setspecific(key, Unmanaged.passRetained(scratch).toOpaque())
        }
        return scratch
    }

    /// Calls `body` with this thread's token buffer, uninitialized, with room for at least `capacity`
    /// tokens (a fresh one if it is already in use).
    static func with<Result>(capacity: Int, _ body: (UnsafeMutablePointer<JSONToken>) -> Result) -> Result {
        let capacity = Swift.max(capacity, 1)
        let scratch = current()
        guard !scratch.inUse else {
            let tokens = UnsafeMutablePointer<JSONToken>.allocate(capacity: capacity)
            defer { tokens.deallocate() }
            return body(tokens)
        }
        if scratch.tokenCapacity < capacity {
            scratch.tokens.deallocate()
            scratch.tokens = .allocate(capacity: capacity)
            scratch.tokenCapacity = capacity
        }
        scratch.inUse = true
        defer {
            scratch.inUse = false
            if scratch.tokenCapacity > retainedCapacity {
                scratch.tokens.deallocate()
                scratch.tokens = .allocate(capacity: 1024)
                scratch.tokenCapacity = 1024
            }
        }
        return body(scratch.tokens)
    }
}

/// A byte buffer kept per thread for ``JSONWriter/withScratch(_:)``: emitters write into it and copy
/// the finished value out, so that writing allocates only the value itself.
enum ScratchBytes {
    /// The largest buffer kept between translations, in bytes (outputs are at most 4096 bytes).
    static let retainedCapacity = 64 * 1024

    /// Raw memory owned by the thread's scratch.
    struct Buffer {
        var start: UnsafeMutablePointer<UInt8>
        var capacity: Int
    }

    /// Calls `body` with this thread's buffer (a fresh one if it is already in use); `body` may replace
    /// it by a larger one, freeing the old.
    @inline(__always)
    static func with<Result>(_ body: (inout Buffer) -> Result) -> Result {
        let scratch = ScratchTokens.current()
        guard !scratch.bytesInUse else {
            var buffer = Buffer(start: .allocate(capacity: 4096), capacity: 4096)
            defer { buffer.start.deallocate() }
            return body(&buffer)
        }
        scratch.bytesInUse = true
        defer {
            scratch.bytesInUse = false
            // A huge output (large data, refused as payload_too_large) grew it: give the memory back.
            if scratch.bytes.capacity > retainedCapacity {
                scratch.bytes.start.deallocate()
                scratch.bytes = Buffer(start: .allocate(capacity: 4096), capacity: 4096)
            }
        }
        return body(&scratch.bytes)
    }
}
