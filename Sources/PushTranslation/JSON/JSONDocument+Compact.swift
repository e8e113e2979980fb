/// Values whose input bytes are already what ``JSONWriter`` writes for them, so that an emitter copies
/// them whole instead of writing them token by token.
extension JSONDocument {
    /// The bytes of the value at `token` (brackets and quotes included) when they are exactly what
    /// ``JSONWriter/value(_:_:)`` writes for it: no white space and no escape anywhere inside. `nil`
    /// otherwise; the value is then written token by token, which gives the same bytes for the rest.
    func compactBytes(_ token: Int) -> UnsafeBufferPointer<UInt8>? {
        let first = tokens[token]
        let begin = first.kind == .string ? Int(first.start) - 1 : Int(first.start)
        var index = token
        var position = begin
        guard stepOverCompact(&index, &position) else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[begin..<position])
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
