import PushModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A parsed JSON document: the input bytes and the token array ``JSONScanner`` made of them. A view over
/// buffers its creator keeps alive for the duration of one translation: copying it copies two pointers.
struct JSONDocument {
    /// The input bytes (valid UTF-8, valid JSON).
    let bytes: UnsafeBufferPointer<UInt8>
    /// The tokens, the top-level value at index 0.
    let tokens: UnsafeBufferPointer<JSONToken>

    /// The JSON type of the value at `token`.
    func kind(_ token: Int) -> JSONToken.Kind { tokens[token].kind }

    /// Whether the value at `token` is `null`.
    func isNull(_ token: Int) -> Bool { tokens[token].kind == .null }

    /// The JSON type name of the value at `token`, for messages.
    func typeName(_ token: Int) -> String { tokens[token].typeName }

    /// The members of an object or elements of an array.
    func count(_ token: Int) -> Int { Int(tokens[token].length) }

    /// The index after the value at `token` and everything inside it.
    func end(_ token: Int) -> Int { Int(tokens[token].end) }

    /// The raw bytes of a string (between the quotes, escapes as written) or of a number.
    func raw(_ token: Int) -> UnsafeBufferPointer<UInt8> {
        let item = tokens[token]
        return UnsafeBufferPointer(rebasing: bytes[Int(item.start)..<Int(item.start) + Int(item.length)])
    }

    /// The raw bytes of an IR text.
    func raw(_ text: InputText) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[text.start..<text.start + text.length])
    }

    /// The IR reference to the string at `token`.
    func text(_ token: Int) -> InputText {
        let item = tokens[token]
        return InputText(start: Int(item.start), length: Int(item.length), isEscaped: item.isEscaped)
    }

    /// The number at `token` as its source text.
    func number(_ token: Int) -> JSONNumber { JSONNumber(text: String(decoding: raw(token), as: UTF8.self)) }

    // MARK: iteration

    /// The members of the object at `token`, as (name token, value token) pairs in input order.
    func members(_ token: Int) -> Members { Members(tokens: tokens, position: token + 1, remaining: count(token)) }

    /// The elements of the array at `token`, as value tokens in order.
    func elements(_ token: Int) -> Elements { Elements(tokens: tokens, position: token + 1, remaining: count(token)) }

    /// Iterates an object's members.
    struct Members: Sequence, IteratorProtocol {
        let tokens: UnsafeBufferPointer<JSONToken>
        var position: Int
        var remaining: Int

        mutating func next() -> (name: Int, value: Int)? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let name = position
            position = Int(tokens[name + 1].end)
            return (name, name + 1)
        }
    }

    /// Iterates an array's elements.
    struct Elements: Sequence, IteratorProtocol {
        let tokens: UnsafeBufferPointer<JSONToken>
        var position: Int
        var remaining: Int

        mutating func next() -> Int? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let element = position
            position = Int(tokens[element].end)
            return element
        }
    }

    /// The value of the member named `name` in the object at `token`, if any.
    func member(_ token: Int, named name: StaticString) -> Int? {
        for member in members(token) where stringEquals(member.name, name) { return member.value }
        return nil
    }

    /// Whether the member named `name` is absent or `null` in the object at `token`.
    func isAbsentOrNull(_ token: Int, _ name: StaticString) -> Bool {
        guard let value = member(token, named: name) else { return true }
        return isNull(value)
    }

    // MARK: comparing and decoding strings

    /// Whether the `count` bytes at `left` and `right` are equal, inline (for names this short, a call to
    /// `memcmp` costs more than the comparison). Whole words only: eight bytes at a time, then the last
    /// eight, four or two bytes once more, overlapping the ones already compared, instead of a byte loop
    /// for the tail. Reads exactly `count` bytes.
    @inline(__always)
    static func bytesEqual(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, count: Int) -> Bool {
        @inline(__always)
        func equal<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) -> Bool {
            left.loadUnaligned(fromByteOffset: offset, as: Word.self)
                == right.loadUnaligned(fromByteOffset: offset, as: Word.self)
        }
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                guard equal(UInt64.self, at: offset) else { return false }
                offset += 8
            }
            return equal(UInt64.self, at: count - 8)
        }
        if count >= 4 { return equal(UInt32.self, at: 0) && equal(UInt32.self, at: count - 4) }
        if count >= 2 { return equal(UInt16.self, at: 0) && equal(UInt16.self, at: count - 2) }
        return count == 0 || equal(UInt8.self, at: 0)
    }

    /// Whether the string at `token` decodes to exactly `literal` (an ASCII name).
    @inline(__always)
    func stringEquals(_ token: Int, _ literal: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        if !tokens[token].isEscaped {
            let bytes = raw(token)
            guard bytes.count == expected.count, let base = bytes.baseAddress else {
                return bytes.count == expected.count
            }
            return JSONDocument.bytesEqual(base, literal.utf8Start, count: expected.count)
        }
        return decodedBytes(token).elementsEqual(expected)
    }

    /// Whether the IR text decodes to exactly `literal`.
    func textEquals(_ text: InputText, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        if !text.isEscaped {
            guard text.length == count, let base = bytes.baseAddress else { return text.length == count && count == 0 }
            return JSONDocument.bytesEqual(base + text.start, literal.utf8Start, count: count)
        }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        return JSONDocument.decode(raw(text)).elementsEqual(expected)
    }

    /// Whether two strings decode to the same code points.
    func sameString(_ lhs: Int, _ rhs: Int) -> Bool {
        let left = tokens[lhs]
        let right = tokens[rhs]
        if !left.isEscaped && !right.isEscaped {
            guard left.length == right.length, let base = bytes.baseAddress else { return false }
            return JSONDocument.bytesEqual(base + Int(left.start), base + Int(right.start), count: Int(left.length))
        }
        return decodedBytes(lhs) == decodedBytes(rhs)
    }

    /// The decoded UTF-8 bytes of the string at `token`.
    func decodedBytes(_ token: Int) -> [UInt8] {
        tokens[token].isEscaped ? JSONDocument.decode(raw(token)) : Array(raw(token))
    }

    /// The decoded string at `token` (a member name or a string value).
    func string(_ token: Int) -> String {
        let bytes = raw(token)
        return tokens[token].isEscaped
            ? String(decoding: JSONDocument.decode(bytes), as: UTF8.self) : String(decoding: bytes, as: UTF8.self)
    }

    /// The decoded IR text.
    func string(_ text: InputText) -> String {
        text.isEscaped
            ? String(decoding: JSONDocument.decode(raw(text)), as: UTF8.self)
            : String(decoding: raw(text), as: UTF8.self)
    }

    /// Calls `body` with the decoded UTF-8 bytes of an IR text (the input bytes themselves when it
    /// holds no escape).
    func withDecodedBytes<Result>(_ text: InputText, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard text.isEscaped else { return body(raw(text)) }
        return JSONDocument.decode(raw(text)).withUnsafeBufferPointer(body)
    }

    /// The number of Unicode scalars (SPEC's characters) of an IR text.
    func characterCount(_ text: InputText) -> Int {
        withDecodedBytes(text) { utf8 in
            var count = 0
            for byte in utf8 where byte & 0xC0 != 0x80 { count += 1 }
            return count
        }
    }

    /// The decoded UTF-8 byte count of an IR text.
    func utf8Count(_ text: InputText) -> Int { text.isEscaped ? JSONDocument.decode(raw(text)).count : text.length }
}
