/// The URL rules of SPEC sections 3 and 9.
///
/// Each check is one forward pass over the bytes: every byte is tested against the character class of
/// the URI part it is in (a shift of a bit mask), and the part changes at its delimiter.
enum URLRules {
    /// An absolute URI with a scheme (RFC 3986), only characters RFC 3986 allows, `%` followed by two hex digits.
    static func isAbsoluteURI(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isAbsoluteURI(bytes:))
    }

    static func isAbsoluteURI(bytes utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = utf8.count
        // scheme ":" hier-part [ "?" query ] [ "#" fragment ] (RFC 3986 section 3); the scheme is
        // ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), so it ends at the first byte outside that.
        guard count > 0, isAlpha(utf8[0]) else { return false }
        var index = 1
        while index < count && CharacterClass.scheme.contains(utf8[index]) { index += 1 }
        guard index < count, utf8[index] == UInt8(ascii: ":") else { return false }
        index += 1
        if index + 1 < count && utf8[index] == UInt8(ascii: "/") && utf8[index + 1] == UInt8(ascii: "/") {
            // The authority ends at the first "/", "?" or "#".
            let authorityStart = index + 2
            var authorityEnd = authorityEndWords(utf8, from: authorityStart)
            while authorityEnd < count && !CharacterClass.authorityEnd.contains(utf8[authorityEnd]) {
                authorityEnd += 1
            }
            guard isAuthority(utf8, authorityStart..<authorityEnd) else { return false }
            index = authorityEnd
        }
        // The path, then the query after the first "?", then the fragment after the first "#" (the query
        // class holds "?" but not "#").
        var allowed = CharacterClass.pathOrSlash
        var inFragment = false
        while index < count {
            let byte = utf8[index]
            if allowed.contains(byte) {
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "%"):
                guard isEscape(utf8, at: index, before: count) else { return false }
                index += 3
            case UInt8(ascii: "?"):  // only in the path: the query class holds it
                allowed = .query
                index += 1
            case UInt8(ascii: "#") where !inFragment:
                allowed = .query
                inFragment = true
                index += 1
            default:
                return false
            }
        }
        return true
    }

    /// The offset of the first `/`, `?` or `#` from `start` on, looking eight bytes at a time; or of the
    /// first byte of the last word (fewer than 8 bytes before the end), from which the caller goes on a
    /// byte at a time.
    @inline(__always)
    private static func authorityEndWords(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = utf8.baseAddress else { return start }
        var cursor = start
        while cursor &+ 8 <= utf8.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + cursor).loadUnaligned(as: UInt64.self))
            // The high bit of each byte that is 0 in `x`, exactly up to the first such byte (a borrow only
            // runs upwards from a zero byte).
            func zeroBytes(_ x: UInt64) -> UInt64 {
                (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
            }
            let ends =
                zeroBytes(word ^ 0x2F2F_2F2F_2F2F_2F2F) | zeroBytes(word ^ 0x3F3F_3F3F_3F3F_3F3F)
                | zeroBytes(word ^ 0x2323_2323_2323_2323)
            if ends != 0 { return cursor &+ (ends.trailingZeroBitCount >> 3) }
            cursor &+= 8
        }
        return cursor
    }

    /// `[ userinfo "@" ] host [ ":" port ]`: `@` only once (userinfo cannot hold one), `[` and `]` only
    /// around an IP literal, a port of digits only. One pass: the userinfo class holds the host class
    /// and `:`, so the bytes up to an `@` are read as userinfo, and as host and port when no `@` follows.
    private static func isAuthority(_ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let end = range.upperBound
        var index = range.lowerBound
        var firstColon = end
        while index < end {
            let byte = utf8[index]
            if CharacterClass.host.contains(byte) {
                index += 1
            } else if byte == UInt8(ascii: ":") {
                if firstColon == end { firstColon = index }
                index += 1
            } else if byte == UInt8(ascii: "%") && isEscape(utf8, at: index, before: end) {
                index += 3
            } else {
                break
            }
        }
        guard index < end else {
            // No `@`: the host ends at the first `:`, and a port follows it.
            return isPort(utf8, firstColon < end ? firstColon + 1..<end : end..<end)
        }
        if utf8[index] == UInt8(ascii: "@") { return isHost(utf8, index + 1..<end) }
        // Any other byte is wrong in userinfo, in a host name and in a port: only an IP literal at the
        // start can hold it (with an `@` after it, the literal or its port is wrong too).
        return index == range.lowerBound && isHost(utf8, range)
    }

    /// `host [ ":" port ]`, the host an IP literal in `[` `]` or a name of host characters and escapes.
    private static func isHost(_ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let end = range.upperBound
        var index = range.lowerBound
        if index < end && utf8[index] == UInt8(ascii: "[") {
            index += 1
            while index < end && CharacterClass.userInfo.contains(utf8[index]) { index += 1 }
            guard index < end, utf8[index] == UInt8(ascii: "]"), index > range.lowerBound + 1 else { return false }
            index += 1
            guard index < end else { return true }
            return utf8[index] == UInt8(ascii: ":") && isPort(utf8, index + 1..<end)
        }
        while index < end {
            let byte = utf8[index]
            if CharacterClass.host.contains(byte) {
                index += 1
            } else if byte == UInt8(ascii: "%") && isEscape(utf8, at: index, before: end) {
                index += 3
            } else {
                break
            }
        }
        guard index < end else { return true }
        return utf8[index] == UInt8(ascii: ":") && isPort(utf8, index + 1..<end)
    }

    /// Whether `range` holds digits only.
    private static func isPort(_ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        for index in range where !isDigit(utf8[index]) { return false }
        return true
    }

    /// Whether the `%` at `index` is followed by two hex digits before `end`.
    @inline(__always)
    private static func isEscape(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int, before end: Int) -> Bool {
        index + 2 < end && isHex(utf8[index + 1]) && isHex(utf8[index + 2])
    }

    /// A set of ASCII bytes, as two bit masks: testing a byte is a shift, not a chain of comparisons.
    struct CharacterClass {
        /// Bytes 0 to 63, one bit each.
        let low: UInt64
        /// Bytes 64 to 127.
        let high: UInt64

        /// Without a branch: the mask of the byte's half, shifted by its low six bits.
        @inline(__always)
        func contains(_ byte: UInt8) -> Bool {
            let mask = byte & 64 == 0 ? low : high
            return byte < 128 && mask >> UInt64(byte & 63) & 1 != 0
        }

        // RFC 3986: unreserved = ALPHA DIGIT - . _ ~; sub-delims = ! $ & ' ( ) * + , ; =
        // (`URLRulesTests` checks each mask against these definitions).
        /// unreserved and sub-delims: a host name.
        static let host = CharacterClass(low: 0x2BFF_7FD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFE)
        /// unreserved, sub-delims and `:`: userinfo, an IP literal.
        static let userInfo = CharacterClass(low: 0x2FFF_7FD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFE)
        /// `pchar` without `%` (unreserved, sub-delims, `:`, `@`) and `/`: a path.
        static let pathOrSlash = CharacterClass(low: 0x2FFF_FFD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFF)
        /// `pchar` without `%`, `/` and `?`: a query or fragment.
        static let query = CharacterClass(low: 0xAFFF_FFD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFF)
        /// ALPHA, DIGIT, `+`, `-` and `.`: a scheme after its first letter.
        static let scheme = CharacterClass(low: 0x03FF_6800_0000_0000, high: 0x07FF_FFFE_07FF_FFFE)
        /// `/`, `?` and `#`: the bytes that end an authority.
        static let authorityEnd = CharacterClass(low: 0x8000_8008_0000_0000, high: 0)
    }
    /// An absolute `http` or `https` URL (scheme compared case-insensitively) with a non-empty host that is
    /// not an IPvFuture literal, and a port, when given, of at most 65535 (SPEC 9): an image, a `navigate`
    /// URL, and what SPEC 5.6 calls an `http` or `https` value.
    static func isImageURL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isImageURL(bytes:))
    }

    static func isImageURL(bytes utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard isAbsoluteURI(bytes: utf8) else { return false }
        // "http" or "https" in any case (`| 0x20` lower-cases a letter), then "://".
        guard utf8.count >= 7, utf8[0] | 0x20 == UInt8(ascii: "h"), utf8[1] | 0x20 == UInt8(ascii: "t"),
            utf8[2] | 0x20 == UInt8(ascii: "t"), utf8[3] | 0x20 == UInt8(ascii: "p")
        else { return false }
        var index = utf8[4] | 0x20 == UInt8(ascii: "s") ? 5 : 4
        guard index + 3 <= utf8.count, utf8[index] == UInt8(ascii: ":"), utf8[index + 1] == UInt8(ascii: "/"),
            utf8[index + 2] == UInt8(ascii: "/")
        else { return false }
        index += 3
        // authority = [userinfo "@"] host [":" port]; the host ends at ':' (or ']' for an IP literal).
        var end = index
        while end < utf8.count, utf8[end] != UInt8(ascii: "/"), utf8[end] != UInt8(ascii: "?"),
            utf8[end] != UInt8(ascii: "#")
        {
            end += 1
        }
        var hostStart = index
        for position in index..<end where utf8[position] == UInt8(ascii: "@") { hostStart = position + 1 }
        guard hostStart < end else { return false }
        // The host's end: after the "]" of an IP literal (`isAbsoluteURI` has checked that one closes it and
        // that only ":" and a port may follow), else at the ":" before a port.
        var hostEnd = hostStart
        if utf8[hostStart] == UInt8(ascii: "[") {
            // Not empty, and not an IPvFuture literal ("[v1.x]", version 4): the browsers refuse one.
            guard hostStart + 1 < end, utf8[hostStart + 1] != UInt8(ascii: "]"),
                utf8[hostStart + 1] | 0x20 != UInt8(ascii: "v")
            else { return false }
            while hostEnd < end && utf8[hostEnd] != UInt8(ascii: "]") { hostEnd += 1 }
            hostEnd += 1
        } else {
            guard utf8[hostStart] != UInt8(ascii: ":") else { return false }
            while hostEnd < end && utf8[hostEnd] != UInt8(ascii: ":") { hostEnd += 1 }
        }
        return hostEnd >= end || isPortNumber(utf8, hostEnd + 1..<end)
    }

    /// Whether the digits of `range` (none, or any count, leading zeros included) name a port the browsers'
    /// URL parser takes: at most 65535 (SPEC 9, version 4).
    private static func isPortNumber(_ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var port = 0
        for index in range {
            port = port * 10 + Int(utf8[index] &- UInt8(ascii: "0"))
            if port > 65535 { return false }
        }
        return true
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
