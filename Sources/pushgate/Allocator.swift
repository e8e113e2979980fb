import CJemalloc

/// The memory allocator of the process. pushgate links jemalloc, which replaces malloc and free for
/// every library in the process, librdkafka's threads included: records are allocated on one thread
/// and freed on another (librdkafka's delivery reports), which glibc's allocator serves through locked
/// arenas and heap consolidation (about 3 µs of CPU per input record in the pipeline benchmark, docs/performance.md).
enum Allocator {
    /// `jemalloc VERSION`, read from the allocator itself, so a log line shows which one is in use.
    static var description: String {
        var version: UnsafePointer<CChar>?
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &version, &size, nil, 0) == 0, let version else { return "jemalloc (version unknown)" }
        return "jemalloc \(String(cString: version))"
    }
}
