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
///
/// Invariants (checked in debug builds):
/// - a thread's `Scratch` is allocated once, set as the thread's value of `key`, and freed with its
///   buffers when the thread ends (the key's destructor); nothing else frees it;
/// - `tokens` points to `tokenCapacity` tokens (`tokenCapacity >= 1`), `bytes` to `bytes.capacity` bytes;
///   both are uninitialized memory of trivial types (`JSONToken` and `UInt8`: nothing to deinitialize);
/// - `inUse` (`bytesInUse`) is true exactly while a `with` call lends the buffer out; a nested call on the
///   same thread gets a fresh buffer of its own, freed when it returns;
/// - the buffer lent out has room for the tokens asked for; between calls it holds at most
///   ``retainedCapacity`` tokens.
enum ScratchTokens {
    /// The largest buffer kept between translations, in tokens (1 MiB of tokens).
    static let retainedCapacity = 1 << 16

    /// The thread's buffers: a struct in memory of its own, reached through a pointer (not a class
    /// instance: each use of one was a retain and a release, and each change of a property a dynamic
    /// exclusivity check).
    fileprivate struct Scratch {
        var tokens: UnsafeMutablePointer<JSONToken>
        var tokenCapacity: Int
        var inUse = false
        var bytes: ScratchBytes.Buffer
        var bytesInUse = false
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            // Only this file sets the key, always to an initialized Scratch of its own.
            let scratch = pointer.assumingMemoryBound(to: Scratch.self)
            scratch.pointee.tokens.deallocate()
            scratch.pointee.bytes.start.deallocate()
            scratch.deinitialize(count: 1)
            scratch.deallocate()
        }
        return key
    }()

    /// This thread's scratch storage.
    fileprivate static func current() -> UnsafeMutablePointer<Scratch> {
        if let pointer = pthread_getspecific(key) {
            // Only this file sets the key, always to an initialized Scratch.
            return pointer.assumingMemoryBound(to: Scratch.self)
        }
        let scratch = UnsafeMutablePointer<Scratch>.allocate(capacity: 1)
        scratch.initialize(
            to: Scratch(
                tokens: .allocate(capacity: 1024), tokenCapacity: 1024,
                bytes: ScratchBytes.Buffer(start: .allocate(capacity: 4096), capacity: 4096)))
        pthread_setspecific(key, scratch)
        return scratch
    }

    /// Calls `body` with this thread's token buffer, uninitialized, with room for at least `capacity`
    /// tokens (a fresh one if it is already in use).
    static func with<Result>(capacity: Int, _ body: (UnsafeMutablePointer<JSONToken>) -> Result) -> Result {
        assert(_isPOD(JSONToken.self), "ScratchTokens: tokens are left uninitialized, so JSONToken must be trivial")
        let capacity = Swift.max(capacity, 1)
        let scratch = current()
        guard !scratch.pointee.inUse else {
            let tokens = UnsafeMutablePointer<JSONToken>.allocate(capacity: capacity)
            defer { tokens.deallocate() }
            return body(tokens)
        }
        if scratch.pointee.tokenCapacity < capacity {
            scratch.pointee.tokens.deallocate()
            scratch.pointee.tokens = .allocate(capacity: capacity)
            scratch.pointee.tokenCapacity = capacity
        }
        assert(scratch.pointee.tokenCapacity >= capacity, "ScratchTokens: lent with less room than asked")
        scratch.pointee.inUse = true
        defer {
            assert(scratch.pointee.inUse, "ScratchTokens: returned while not lent out")
            scratch.pointee.inUse = false
            if scratch.pointee.tokenCapacity > retainedCapacity {
                scratch.pointee.tokens.deallocate()
                scratch.pointee.tokens = .allocate(capacity: 1024)
                scratch.pointee.tokenCapacity = 1024
            }
            assert(scratch.pointee.tokenCapacity <= retainedCapacity, "ScratchTokens: kept past retainedCapacity")
        }
        return body(scratch.pointee.tokens)
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
        guard !scratch.pointee.bytesInUse else {
            var buffer = Buffer(start: .allocate(capacity: 4096), capacity: 4096)
            defer { buffer.start.deallocate() }
            return body(&buffer)
        }
        assert(scratch.pointee.bytes.capacity > 0, "ScratchBytes: an empty buffer")
        scratch.pointee.bytesInUse = true
        defer {
            assert(scratch.pointee.bytes.capacity > 0, "ScratchBytes: the buffer was replaced by an empty one")
            scratch.pointee.bytesInUse = false
            // A huge output (large data, refused as payload_too_large) grew it: give the memory back.
            if scratch.pointee.bytes.capacity > retainedCapacity {
                scratch.pointee.bytes.start.deallocate()
                scratch.pointee.bytes = Buffer(start: .allocate(capacity: 4096), capacity: 4096)
            }
        }
        return body(&scratch.pointee.bytes)
    }
}
