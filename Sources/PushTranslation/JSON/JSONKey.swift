/// The member names of one object of the unified payload, matched against the input's raw bytes
/// without making a `String` of each name.
protocol JSONKey: RawRepresentable<String>, CaseIterable, Sendable {
    /// The names, indexed for matching (declare as `static let keyTable = KeyTable<Self>()`).
    static var keyTable: KeyTable<Self> { get }
}

/// Matches names to keys: names are bucketed by length, then compared byte by byte.
struct KeyTable<Key: JSONKey>: Sendable {
    private let names: [UInt8]
    /// `(offset in names, key)` per name, grouped by length: entries of length L are
    /// `entries[firstEntry[L]..<firstEntry[L + 1]]`.
    private let entries: [(offset: Int, key: Key)]
    private let firstEntry: [Int]

    init() {
        let sorted = Key.allCases.map { (Array($0.rawValue.utf8), $0) }.sorted { $0.0.count < $1.0.count }
        let longest = sorted.last?.0.count ?? 0
        var names: [UInt8] = []
        var entries: [(offset: Int, key: Key)] = []
        var firstEntry = Array(repeating: 0, count: longest + 2)
        for (bytes, key) in sorted {
            entries.append((names.count, key))
            names += bytes
        }
        var position = 0
        for length in 0...longest + 1 {
            firstEntry[length] = position
            while position < sorted.count && sorted[position].0.count == length { position += 1 }
        }
        self.names = names
        self.entries = entries
        self.firstEntry = firstEntry
    }

    /// The key spelled exactly `name`, if any.
    func match(_ name: UnsafeBufferPointer<UInt8>) -> Key? {
        let length = name.count
        guard length + 1 < firstEntry.count else { return nil }
        return names.withUnsafeBufferPointer { names in
            for entry in entries[firstEntry[length]..<firstEntry[length + 1]] {
                if UnsafeBufferPointer(rebasing: names[entry.offset..<entry.offset + length]).elementsEqual(name) {
                    return entry.key
                }
            }
            return nil
        }
    }
}

extension JSONDocument {
    /// The key the member name at `token` spells, `nil` for a name that is not one of `Key`'s.
    func key<Key: JSONKey>(_ token: Int, as _: Key.Type = Key.self) -> Key? {
        guard tokens[token].isEscaped else { return Key.keyTable.match(raw(token)) }
        return decodedBytes(token).withUnsafeBufferPointer { Key.keyTable.match($0) }
    }
}
