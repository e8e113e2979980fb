/// The member names of one object of the unified payload, matched against the input's raw bytes
/// without making a `String` of each name.
protocol JSONKey: RawRepresentable<String>, CaseIterable, Sendable {
    /// The names, indexed for matching (declare as `static let keyTable = KeyTable<Self>()`).
    static var keyTable: KeyTable<Self> { get }
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
