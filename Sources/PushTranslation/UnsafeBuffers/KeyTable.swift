/// Matches names to keys: names are bucketed by length, then compared byte by byte. The table is built
/// once per key type into memory that is never freed or changed, read without reference counting.
///
/// Invariants (checked by `assertInvariants(entries:)` in debug builds, once per table, and per lookup where
/// cheap):
/// - `keys` and `offsets` have one entry per case of `Key`, sorted by the length of the name;
///   `names + offsets[e]` is entry `e`'s name, `Key`'s raw value in UTF-8;
/// - `firstEntry` has `longest + 2` entries, never decreasing, from 0 to the number of cases: the
///   entries of names of length `L` are `firstEntry[L]..<firstEntry[L + 1]`;
/// - the memory is never freed or written after `init` (a table lives as long as the process).
///
/// `@unchecked Sendable` because pointers are not `Sendable`; safe because the memory they reach is
/// written once, in `init`, and never changed or freed afterwards: every thread only reads it. Each
/// table is a `static let` of its key type, so `init` runs inside Swift's lazy initialization of that
/// global (`swift_once`), whose writes happen before any thread's first read of the table.
struct KeyTable<Key: JSONKey>: @unchecked Sendable {
    /// Every name's bytes, one after another.
    private let names: UnsafePointer<UInt8>
    /// Per entry, sorted by name length: the name's offset in `names` and its key.
    private let offsets: UnsafePointer<Int>
    private let keys: UnsafePointer<Key>
    /// Entries of length L are `firstEntry[L]..<firstEntry[L + 1]`.
    private let firstEntry: UnsafePointer<Int>
    private let longest: Int

    init() {
        let sorted = Key.allCases.map { (Array($0.rawValue.utf8), $0) }.sorted { $0.0.count < $1.0.count }
        longest = sorted.last?.0.count ?? 0
        let names = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(1, sorted.reduce(0) { $0 + $1.0.count }))
        let offsets = UnsafeMutablePointer<Int>.allocate(capacity: Swift.max(1, sorted.count))
        let keys = UnsafeMutablePointer<Key>.allocate(capacity: Swift.max(1, sorted.count))
        let firstEntry = UnsafeMutablePointer<Int>.allocate(capacity: longest + 2)
        var offset = 0
        for (index, (bytes, key)) in sorted.enumerated() {
            (names + offset).initialize(from: bytes, count: bytes.count)
            (offsets + index).initialize(to: offset)
            (keys + index).initialize(to: key)
            offset += bytes.count
        }
        var position = 0
        for length in 0...longest + 1 {
            (firstEntry + length).initialize(to: position)
            while position < sorted.count && sorted[position].0.count == length { position += 1 }
        }
        self.names = UnsafePointer(names)
        self.offsets = UnsafePointer(offsets)
        self.keys = UnsafePointer(keys)
        self.firstEntry = UnsafePointer(firstEntry)
        assertInvariants(entries: sorted.count)
    }

    /// Checks the invariants in debug builds: the bounds of every bucket, and that every name is found
    /// as its own key.
    private func assertInvariants(entries: Int) {
        assert(firstEntry[0] == 0 && firstEntry[longest + 1] == entries, "KeyTable: buckets do not cover the entries")
        for length in 0...longest { assert(firstEntry[length] <= firstEntry[length + 1], "KeyTable: bucket order") }
        for key in Key.allCases {
            assert(
                Array(key.rawValue.utf8).withUnsafeBufferPointer { match($0) }?.rawValue == key.rawValue,
                "KeyTable: \(key.rawValue) is not found as itself")
        }
    }

    /// The key spelled exactly `name`, if any.
    @inline(__always)
    func match(_ name: UnsafeBufferPointer<UInt8>) -> Key? {
        let length = name.count
        guard length <= longest, let base = name.baseAddress else { return nil }
        var entry = firstEntry[length]
        let end = firstEntry[length + 1]
        assert(entry <= end, "KeyTable: bucket \(length) ends before it starts")
        while entry < end {
            if JSONDocument.bytesEqual(names + offsets[entry], base, count: length) { return keys[entry] }
            entry += 1
        }
        return nil
    }
}
