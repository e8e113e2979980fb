#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The member names of one object of the unified payload, matched against the input's raw bytes
/// without making a `String` of each name.
protocol JSONKey: RawRepresentable<String>, CaseIterable, Sendable {
    /// The names, indexed for matching (declare as `static let keyTable = KeyTable<Self>()`).
    static var keyTable: KeyTable<Self> { get }
}

/// Matches names to keys: names are bucketed by length, then compared byte by byte. The table is built
/// once per key type into memory that is never freed or changed, read without reference counting.
///
/// `@unchecked Sendable` is safe because the memory its pointers reach is written once, in `init`,
/// before the table is shared, and never changed or freed afterwards: every thread only reads it.
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
    }

    /// The key spelled exactly `name`, if any.
    @inline(__always)
    func match(_ name: UnsafeBufferPointer<UInt8>) -> Key? {
        let length = name.count
        guard length <= longest, let base = name.baseAddress else { return nil }
        var entry = firstEntry[length]
        let end = firstEntry[length + 1]
        while entry < end {
            if JSONDocument.bytesEqual(names + offsets[entry], base, count: length) { return keys[entry] }
            entry += 1
        }
        return nil
    }
}

extension JSONDocument {
    /// The key the member name at `token` spells, `nil` for a name that is not one of `Key`'s.
    @inline(__always)
    func key<Key: JSONKey>(_ token: Int, as _: Key.Type = Key.self) -> Key? { key(token, in: Key.keyTable) }

    /// The key the member name at `token` spells in `table`, `nil` for a name that is not in it.
    @inline(__always)
    func key<Key: JSONKey>(_ token: Int, in table: KeyTable<Key>) -> Key? {
        guard tokens[token].isEscaped else { return table.match(raw(token)) }
        return decodedBytes(token).withUnsafeBufferPointer { table.match($0) }
    }

    /// The members of the object at `token` with the key each name spells (`nil` for a name that is not
    /// one of `Key`'s), in input order. The key table is fetched once for the object, not once per member.
    func members<Key: JSONKey>(_ token: Int, keyedBy _: Key.Type) -> KeyedMembers<Key> {
        KeyedMembers(document: self, table: Key.keyTable, members: members(token))
    }

    /// Iterates an object's members with their keys.
    struct KeyedMembers<Key: JSONKey>: Sequence, IteratorProtocol {
        let document: JSONDocument
        let table: KeyTable<Key>
        var members: Members

        @inline(__always)
        mutating func next() -> (name: Int, key: Key?, value: Int)? {
            guard let (name, value) = members.next() else { return nil }
            return (name, document.key(name, in: table), value)
        }
    }
}
