extension JSONScanner {
    /// Scans a string starting at its opening quote and appends its token; the index ends after the
    /// closing quote. Escapes are checked, not decoded.
    ///
    /// Inline, for the common string: ASCII without escapes, found whole by ``plainStringEnd(from:)``.
    /// Any other continues in ``scanStringRest(start:)``.
    @inline(__always)
    mutating func scanString() throws(JSONParseFailure) {
        let start = index &+ 1
        if let end = plainStringEnd(from: start) {
            index = end &+ 1
            appendString(start: start, end: end, isEscaped: false)
        } else {
            try scanStringRest(start: start)
        }
    }

    /// Scans a member name as ``scanString()`` does, and returns its bits for the duplicate filter of
    /// ``scanObject(depth:)``: never none, and equal names get equal bits. One bit for a name without
    /// escapes; every bit for a name with escapes (a bit from its raw bytes would not say what they mean).
    @inline(__always)
    mutating func scanMemberName() throws(JSONParseFailure) -> UInt64 {
        let start = index &+ 1
        if let end = plainStringEnd(from: start) {
            index = end &+ 1
            appendString(start: start, end: end, isEscaped: false)
            return nameBit(start: start, end: end)
        }
        try scanStringRest(start: start)
        let name = tokens[tokenCount - 1]
        return name.isEscaped ? ~0 : nameBit(start: Int(name.start), end: Int(name.start) + Int(name.length))
    }

    /// The bit of the unescaped name at `start..<end`, from its length and end bytes (for an empty
    /// name, its quotes: always in bounds).
    @inline(__always)
    private func nameBit(start: Int, end: Int) -> UInt64 {
        Self.nameBit(length: end &- start, first: base[start], last: base[end &- 1])
    }

    /// The bit of a name of `length` bytes from `first` to `last`. The factors give the member names of each
    /// object of the unified payload bits of their own (a test checks it), so that a payload whose names are
    /// all the contract's compares none of them with the others.
    @inline(__always)
    static func nameBit(length: Int, first: UInt8, last: UInt8) -> UInt64 {
        let mixed = length &* 17 &+ Int(first) &* 16 &+ Int(last) &* 2
        return 1 << UInt64(mixed & 63)
    }

    /// The offset of the closing quote of the string whose bytes begin at `start` when they are plain
    /// ASCII (no escape, no control character) found by whole words; else `nil`, with the index at the
    /// first byte the search could not step over (or fewer than 8 bytes before the end of the input).
    @inline(__always)
    private mutating func plainStringEnd(from start: Int) -> Int? {
        let cursor = skipPlainBytes(from: start)
        if cursor < bytes.count && base[cursor] == UInt8(ascii: "\"") { return cursor }
        index = cursor
        return nil
    }

    /// The offset of the first byte from `cursor` on that is a quote, a backslash, a control character
    /// or not ASCII, looking eight bytes at a time; or of the first byte of the last word (fewer than 8
    /// bytes before the end of the input), which is not looked at.
    @inline(__always)
    private func skipPlainBytes(from start: Int) -> Int {
        var cursor = start
        // Words with nothing to look at are skipped whole; in the first word with something, the cursor
        // goes straight to that byte. In bounds: 8 bytes from `cursor`. The cursor never passes the
        // end of the input: its arithmetic cannot overflow.
        while cursor &+ 8 <= bytes.count {
            let attention = Self.attentionMask(UnsafeRawPointer(base + cursor).loadUnaligned(as: UInt64.self))
            if attention != 0 { return cursor &+ (attention.trailingZeroBitCount >> 3) }
            cursor &+= 8
        }
        return cursor
    }

    /// Scans the rest of the string whose bytes began at `start`, from the index (which is no further
    /// than its first byte that is not plain ASCII).
    @inline(never)
    private mutating func scanStringRest(start: Int) throws(JSONParseFailure) {
        // Still no escape so far: non-ASCII sequences are checked here (the parse stage checks UTF-8 of
        // the whole payload only when scanning fails: outside strings only ASCII is valid JSON).
        while index < bytes.count {
            index = skipPlainBytes(from: index)
            guard index < bytes.count else { break }
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                appendString(start: start, end: index, isEscaped: false)
                index += 1
                return
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw invalid("control character in a string must be escaped") }
            try skipCharacter(byte)
        }
        guard index < bytes.count else { throw invalid("unterminated string") }
        while index < bytes.count {
            switch base[index] {
            case UInt8(ascii: "\""):
                appendString(start: start, end: index, isEscaped: true)
                index += 1
                looseCount &+= 1
                return
            case UInt8(ascii: "\\"):
                try scanEscape()
            case 0x00..<0x20:
                throw invalid("control character in a string must be escaped")
            case let byte:
                try skipCharacter(byte)
            }
        }
        throw invalid("unterminated string")
    }

    /// Steps over one character of a string: an ASCII byte, or a well-formed UTF-8 sequence.
    @inline(__always)
    private mutating func skipCharacter(_ byte: UInt8) throws(JSONParseFailure) {
        guard byte >= 0x80 else {
            index += 1
            return
        }
        // Two-byte sequences (Latin letters such as é: the most common) without the general check.
        if byte >= 0xC2 && byte <= 0xDF && index + 1 < bytes.count && base[index + 1] & 0xC0 == 0x80 {
            index += 2
            return
        }
        let length = UTF8Validator.sequenceLength(in: bytes, at: index)
        guard length > 0 else {
            throw JSONParseFailure(kind: .invalidUTF8, offset: index, message: "invalid UTF-8 at byte \(index)")
        }
        index += length
    }

    /// The high bit of each byte of `word` (loaded from memory, so byte 0 is the lowest on a little-endian
    /// machine) that is `"`, `\\`, below 0x20 or not ASCII, possibly also of bytes after the first such
    /// byte (bit tricks: a borrow can only run upwards from a byte that matched). Zero when no byte is:
    /// the lowest set bit is always the first such byte.
    @inline(__always)
    static func attentionMask(_ loaded: UInt64) -> UInt64 {
        let word = UInt64(littleEndian: loaded)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote & highs
        let hasBackslash = (backslash &- ones) & ~backslash & highs
        let hasControl = (word &- ones &* 0x20) & ~word & highs
        return hasQuote | hasBackslash | hasControl | (word & highs)
    }

    /// Appends the token of the string whose bytes are `start..<end`.
    @inline(__always)
    private mutating func appendString(start: Int, end: Int, isEscaped: Bool) {
        appendToken(
            JSONToken(
                start: UInt32(truncatingIfNeeded: start), length: UInt32(truncatingIfNeeded: end &- start),
                end: UInt32(truncatingIfNeeded: tokenCount &+ 1), kind: .string, isEscaped: isEscaped))
    }

    private mutating func scanEscape() throws(JSONParseFailure) {
        index += 1
        guard index < bytes.count else { throw invalid("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return
        case UInt8(ascii: "u"):
            let escapeStart = index - 2
            let unit = try scanHex4()
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw unpairedSurrogate(at: escapeStart) }
                index += 2
                let low = try scanHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw unpairedSurrogate(at: escapeStart) }
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw unpairedSurrogate(at: escapeStart)
            }
        default:
            index -= 1
            throw invalid("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func scanHex4() throws(JSONParseFailure) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw invalid("unterminated \\u escape") }
            guard let digit = JSONDocument.hexValue(bytes[index]) else {
                throw invalid("expected 4 hex digits in a \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private func unpairedSurrogate(at offset: Int) -> JSONParseFailure {
        JSONParseFailure(
            kind: .invalidJSON, offset: offset,
            message: "invalid JSON at byte \(offset): \\u escape encodes an unpaired surrogate")
    }
}
