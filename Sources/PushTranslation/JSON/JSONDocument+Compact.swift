/// Values whose input bytes are already what ``JSONWriter`` writes for them, so that an emitter copies
/// them whole instead of writing them token by token.
extension JSONDocument {
    /// The bytes of the value at `token` (brackets and quotes included) when they are exactly what
    /// ``JSONWriter/value(_:_:)`` writes for it: no white space and no escape anywhere inside. `nil`
    /// otherwise; the value is then written token by token, which gives the same bytes for the rest.
    ///
    /// The scanner marks a container that holds white space or an escape (its token's `isEscaped`), so a
    /// compact one's bytes end where its last value's do, one closing bracket further per level: found by
    /// following the last value down, not by stepping over every token and byte (debug builds check that
    /// both give the same).
    func compactBytes(_ token: Int) -> UnsafeBufferPointer<UInt8>? {
        let first = tokens[token]
        let begin = first.kind == .string ? Int(first.start) - 1 : Int(first.start)
        let end: Int? = first.isEscaped ? nil : compactEnd(token)
        assert(end == steppedCompactEnd(token, from: begin), "JSONDocument: compact bytes of \(token) differ")
        guard let end else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[begin..<end])
    }

    /// The offset after the last byte of the value at `token`, which holds no white space and no escape.
    private func compactEnd(_ token: Int) -> Int {
        var index = token
        var closers = 0
        while true {
            let item = tokens[index]
            switch item.kind {
            case .object, .array:
                let count = Int(item.length)
                guard count > 0 else { return Int(item.start) + 2 + closers }
                // The last value: an object's values follow their names.
                let isObject = item.kind == .object
                var child = index + (isObject ? 2 : 1)
                for _ in 1..<count { child = Int(tokens[child].end) + (isObject ? 1 : 0) }
                closers += 1
                index = child
            case .string: return Int(item.start) + Int(item.length) + 1 + closers
            default: return Int(item.start) + Int(item.length) + closers
            }
        }
    }

    /// ``compactEnd(_:)`` found by stepping over every token and byte of the value, `nil` at the first white
    /// space or escape: what debug builds check the marks against.
    private func steppedCompactEnd(_ token: Int, from begin: Int) -> Int? {
        var index = token
        var position = begin
        guard stepOverCompact(&index, &position) else { return nil }
        return position
    }

    /// Steps `index` over the value at it and `position` over its bytes, which must start right at
    /// `position`; false at the first white space or escape. Calls itself only for nested containers.
    private func stepOverCompact(_ index: inout Int, _ position: inout Int) -> Bool {
        let item = tokens[index]
        guard item.kind == .object || item.kind == .array else { return stepOverScalar(&index, &position) }
        guard Int(item.start) == position else { return false }
        index += 1
        position += 1
        let isObject = item.kind == .object
        for child in 0..<Int(item.length) {
            if child > 0 { guard step(over: UInt8(ascii: ","), &position) else { return false } }
            if isObject {
                guard stepOverScalar(&index, &position), step(over: UInt8(ascii: ":"), &position) else { return false }
            }
            let kind = tokens[index].kind
            let stepped =
                kind == .object || kind == .array
                ? stepOverCompact(&index, &position) : stepOverScalar(&index, &position)
            guard stepped else { return false }
        }
        return step(over: isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"), &position)
    }

    /// ``stepOverCompact(_:_:)`` for a string, number or literal.
    @inline(__always)
    private func stepOverScalar(_ index: inout Int, _ position: inout Int) -> Bool {
        let item = tokens[index]
        index += 1
        if item.kind == .string {
            guard !item.isEscaped, Int(item.start) == position + 1 else { return false }
            position += Int(item.length) + 2
        } else {
            guard Int(item.start) == position else { return false }
            position += Int(item.length)
        }
        return true
    }

    /// Steps `position` over `byte` when it is the byte there.
    @inline(__always)
    private func step(over byte: UInt8, _ position: inout Int) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }
}
