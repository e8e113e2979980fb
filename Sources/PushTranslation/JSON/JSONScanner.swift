/// A strict RFC 8259 scanner that writes a flat token array instead of a tree: no trailing data, no
/// duplicate member names, no unpaired surrogate escapes, and a depth limit that keeps recursion
/// bounded. Strings and numbers stay byte ranges of the input.
///
/// The input must already be valid UTF-8 (see ``UTF8Validator``). Failures name the same byte offsets
/// and say the same words as SPEC section 9 asks: the first problem found, reading left to right.
///
/// The hot paths read `base[i]` directly, always after checking `i < bytes.count` (`bytes` itself
/// would check again, and its `baseAddress` is optional).
struct JSONScanner {
    /// The deepest allowed value: the top-level value is at depth 1; depth 65 is `too_deep`.
    static let maximumDepth = 64

    let bytes: UnsafeBufferPointer<UInt8>
    /// The first byte of `bytes`.
    let base: UnsafePointer<UInt8>
    /// The offset of the next byte to read: never past the end of the input, so that stepping over a
    /// byte just read (`&+= 1`) cannot overflow.
    var index = 0
    /// Where tokens are written: room for at least `bytes.count` of them (every token starts at a byte of
    /// its own, so a document of N bytes has at most N tokens: appending never checks capacity).
    let tokens: UnsafeMutablePointer<JSONToken>
    /// The number of tokens written.
    var tokenCount = 0
    /// How many white space bytes and escaped strings were stepped over so far: a container whose count
    /// changed between its brackets is not compact (its token's `isEscaped`).
    var looseCount = 0
    /// The decoded names of each object (by its token) with more than 16 members, made once a name of it
    /// may be a duplicate (see ``isDuplicate(name:in:before:)``). Kept for the whole scan, so that a small
    /// object has no set of its own to release.
    private var largeObjectNames: [Int: Set<[UInt8]>] = [:]

    /// The tokens written so far.
    var writtenTokens: UnsafeBufferPointer<JSONToken> { UnsafeBufferPointer(start: tokens, count: tokenCount) }

    /// Scans one complete JSON document into `tokens`, which must have room for `bytes.count` tokens.
    /// The number of tokens written, or the first problem found.
    static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, into tokens: UnsafeMutablePointer<JSONToken>
    ) -> Result<Int, JSONParseFailure> {
        guard let base = bytes.baseAddress else {
            return .failure(invalid("unexpected end of input, expected a value", at: 0, count: 0))
        }
        var scanner = JSONScanner(bytes: bytes, base: base, tokens: tokens)
        do {
            try scanner.scanValue(depth: 1)
            scanner.skipWhitespace()
            if scanner.index < bytes.count {
                return .failure(scanner.invalid("unexpected data after the top-level value"))
            }
            return .success(scanner.tokenCount)
        } catch {
            return .failure(error)
        }
    }

    // MARK: values

    /// Scans the value after any white space, at `depth`. Inline at each place a value is expected, so
    /// that a string (most values) is scanned without a call and a container with one.
    @inline(__always)
    private mutating func scanValue(depth: Int) throws(JSONParseFailure) {
        // 0 at the end of the input, which no case matches: ``noValue()`` tells the end from a real 0.
        let byte = significantByte()
        if depth > Self.maximumDepth { throw index < bytes.count ? tooDeep() : noValue() }
        switch byte {
        case UInt8(ascii: "\""): try scanString()
        case UInt8(ascii: "{"): try scanObject(depth: depth)
        case UInt8(ascii: "["): try scanArray(depth: depth)
        case UInt8(ascii: "t"): try scanLiteral("true", .true)
        case UInt8(ascii: "f"): try scanLiteral("false", .false)
        case UInt8(ascii: "n"): try scanLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
        default: throw noValue()
        }
    }

    /// The failure when no value starts at the index: the input ends, or its byte cannot start one.
    private func noValue() -> JSONParseFailure {
        guard index < bytes.count else { return invalid("unexpected end of input, expected a value") }
        return invalid("unexpected \(describeByte(base[index])), expected a value")
    }

    /// The `too_deep` failure of the value at the index.
    private func tooDeep() -> JSONParseFailure {
        JSONParseFailure(
            kind: .tooDeep, offset: index,
            message: "value at byte \(index) is nested deeper than \(Self.maximumDepth) levels")
    }

    /// Appends a token and returns its index; `end` is set to the next index.
    @inline(__always)
    private mutating func append(_ kind: JSONToken.Kind, start: Int, length: Int, isEscaped: Bool = false) -> Int {
        let position = tokenCount
        appendToken(
            JSONToken(
                start: UInt32(truncatingIfNeeded: start), length: UInt32(truncatingIfNeeded: length),
                end: UInt32(truncatingIfNeeded: position + 1), kind: kind, isEscaped: isEscaped))
        return position
    }

    /// Writes `token` after the last one. In bounds: a token starts at a byte of its own and `tokens`
    /// has room for one per input byte.
    @inline(__always)
    mutating func appendToken(_ token: JSONToken) {
        (tokens + tokenCount).initialize(to: token)
        tokenCount &+= 1  // at most bytes.count tokens: no overflow
    }

    /// Finishes the token of `container`: its element count, its end, and whether white space or an
    /// escape came since `looseBefore` (``looseCount`` at its opening bracket).
    private mutating func close(_ container: Int, count: Int, looseBefore: Int) {
        tokens[container].length = UInt32(truncatingIfNeeded: count)
        tokens[container].end = UInt32(truncatingIfNeeded: tokenCount)
        tokens[container].isEscaped = looseCount != looseBefore
    }

    private mutating func scanObject(depth: Int) throws(JSONParseFailure) {
        let object = append(.object, start: index, length: 0)
        let looseBefore = looseCount
        index &+= 1
        if significantByte() == UInt8(ascii: "}") {
            index &+= 1
            close(object, count: 0, looseBefore: looseBefore)
            return
        }
        var count = 0
        // The bits of the names seen (see ``scanMemberName()``): a name none of whose bits is set yet
        // cannot equal an earlier one, and needs no comparison. An escaped name has every bit, so it
        // and every name after it are compared (unless it is the first). So are all names after the
        // 16th: a large object keeps a set of every name, so each must go through it.
        var seenNames: UInt64 = 0
        while true {
            guard significantByte() == UInt8(ascii: "\"") else {
                throw invalid("expected a member name in double quotes")
            }
            let nameOffset = index
            let name = tokenCount
            let bits = try scanMemberName()
            let mayBeDuplicate = seenNames & bits != 0
            seenNames = count < 15 ? seenNames | bits : ~0
            if mayBeDuplicate && isDuplicate(name: name, in: object, before: count) {
                let document = JSONDocument(bytes: bytes, tokens: writtenTokens).string(name)
                throw JSONParseFailure(
                    kind: .invalidJSON, offset: nameOffset,
                    message: "duplicate member name \"\(JSONDocument.printable(document))\" at byte \(nameOffset)")
            }
            guard significantByte() == UInt8(ascii: ":") else { throw invalid("expected ':' after a member name") }
            index &+= 1
            try scanValue(depth: depth &+ 1)
            count &+= 1
            switch significantByte() {
            case UInt8(ascii: ","):
                index &+= 1
            case UInt8(ascii: "}"):
                index &+= 1
                close(object, count: count, looseBefore: looseBefore)
                return
            default:
                throw invalid("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func scanArray(depth: Int) throws(JSONParseFailure) {
        let array = append(.array, start: index, length: 0)
        let looseBefore = looseCount
        index &+= 1
        if significantByte() == UInt8(ascii: "]") {
            index &+= 1
            close(array, count: 0, looseBefore: looseBefore)
            return
        }
        var count = 0
        while true {
            try scanValue(depth: depth &+ 1)
            count &+= 1
            switch significantByte() {
            case UInt8(ascii: ","):
                index &+= 1
            case UInt8(ascii: "]"):
                index &+= 1
                close(array, count: count, looseBefore: looseBefore)
                return
            default:
                throw invalid("expected ',' or ']' in an array")
            }
        }
    }

    /// Whether the member name at token `name` equals one of the `count` earlier names of `object`,
    /// comparing decoded code points exactly (canonically equivalent spellings are different names):
    /// a linear scan for small objects, a set of decoded names once an object grows.
    private mutating func isDuplicate(name: Int, in object: Int, before count: Int) -> Bool {
        let document = JSONDocument(bytes: bytes, tokens: writtenTokens)
        if count < 16 {
            var earlier = object + 1
            for _ in 0..<count {
                if document.sameString(earlier, name) { return true }
                earlier = Int(tokens[earlier + 1].end)
            }
            return false
        }
        if largeObjectNames[object] == nil {
            var set = Set<[UInt8]>()
            var earlier = object + 1
            for _ in 0..<count {
                set.insert(document.decodedBytes(earlier))
                earlier = Int(tokens[earlier + 1].end)
            }
            largeObjectNames[object] = set
        }
        return largeObjectNames[object]?.insert(document.decodedBytes(name)).inserted == false
    }

    // MARK: numbers and literals

    /// Scans a number with a cursor of its own (the index is a stored property: each step of it would
    /// be a store), which never passes the end of the input.
    private mutating func scanNumber() throws(JSONParseFailure) {
        let start = index
        var cursor = start
        if byte(at: cursor) == UInt8(ascii: "-") { cursor &+= 1 }
        let first = byte(at: cursor)
        guard isDigit(first) else { throw invalid("expected a digit in a number", at: cursor) }
        cursor &+= 1
        if first != UInt8(ascii: "0") { cursor = digitsEnd(from: cursor) }
        if byte(at: cursor) == UInt8(ascii: ".") {
            cursor &+= 1
            guard isDigit(byte(at: cursor)) else { throw invalid("expected a digit after '.' in a number", at: cursor) }
            cursor = digitsEnd(from: cursor)
        }
        if byte(at: cursor) | 0x20 == UInt8(ascii: "e") {  // e or E
            cursor &+= 1
            let sign = byte(at: cursor)
            if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { cursor &+= 1 }
            guard isDigit(byte(at: cursor)) else {
                throw invalid("expected a digit in a number's exponent", at: cursor)
            }
            cursor = digitsEnd(from: cursor)
        }
        index = cursor
        _ = append(.number, start: start, length: cursor &- start)
    }

    /// The offset of the first byte from `cursor` on that is not a digit.
    @inline(__always)
    private func digitsEnd(from start: Int) -> Int {
        var cursor = start
        while isDigit(byte(at: cursor)) { cursor &+= 1 }
        return cursor
    }

    private mutating func scanLiteral(_ literal: StaticString, _ kind: JSONToken.Kind) throws(JSONParseFailure) {
        let start = index
        let length = literal.utf8CodeUnitCount
        let pointer = literal.utf8Start
        for offset in 0..<length {
            guard index + offset < bytes.count, base[index + offset] == pointer[offset] else {
                index += offset
                throw invalid("invalid literal, expected '\(literal)'")
            }
        }
        index += length
        _ = append(kind, start: start, length: length)
    }

    // MARK: helpers

    /// The byte at the index, or 0 at the end of the input. Every byte the scanner compares it with is
    /// printable, so a 0 fails each comparison just as "no byte" would.
    @inline(__always)
    func peek() -> UInt8 { byte(at: index) }

    /// The byte at `offset`, or 0 at the end of the input (as ``peek()``).
    @inline(__always)
    func byte(at offset: Int) -> UInt8 { offset < bytes.count ? base[offset] : 0 }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Steps over white space. Compact JSON has none: one look at the next byte, inline.
    @inline(__always)
    private mutating func skipWhitespace() {
        if index < bytes.count && base[index] <= 0x20 { skipWhitespaceBytes() }
    }

    /// Steps over white space and returns the byte after it, as ``peek()`` does.
    @inline(__always)
    private mutating func significantByte() -> UInt8 {
        let byte = peek()
        if byte > 0x20 { return byte }
        skipWhitespaceBytes()
        return peek()
    }

    /// Steps over white space a byte at a time (called only when the next byte is <= 0x20: compact JSON
    /// never gets here).
    private mutating func skipWhitespaceBytes() {
        while index < bytes.count {
            switch base[index] {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
                looseCount &+= 1
            default: return
            }
        }
    }

    func invalid(_ problem: String) -> JSONParseFailure {
        Self.invalid(problem, at: index, count: bytes.count)
    }

    /// The `invalid_json` failure of `problem` found at byte `offset`.
    func invalid(_ problem: String, at offset: Int) -> JSONParseFailure {
        Self.invalid(problem, at: offset, count: bytes.count)
    }

    /// The `invalid_json` failure of `problem` found at byte `index` of an input of `count` bytes.
    static func invalid(_ problem: String, at index: Int, count: Int) -> JSONParseFailure {
        let location = index < count ? "at byte \(index)" : "at byte \(index) (end of input)"
        return JSONParseFailure(kind: .invalidJSON, offset: index, message: "invalid JSON \(location): \(problem)")
    }

    private func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: false))"
    }
}
