/// The URL rules of SPEC sections 3 and 9.
enum URLRules {
    /// An absolute URI with a scheme (RFC 3986), only characters RFC 3986 allows, `%` followed by two hex digits.
    static func isAbsoluteURI(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isAbsoluteURI(bytes:))
    }

    static func isAbsoluteURI(bytes utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
        guard isAlpha(utf8[0]) else { return false }
        for byte in UnsafeBufferPointer(rebasing: utf8[1..<colon])
        where !(isAlpha(byte) || isDigit(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E) {
            return false
        }
        // scheme ":" hier-part [ "?" query ] [ "#" fragment ] (RFC 3986 section 3).
        var end = utf8.count
        if let hash = utf8[(colon + 1)...].firstIndex(of: UInt8(ascii: "#")) {
            guard isValid(utf8, hash + 1..<end, allowing: .query) else { return false }
            end = hash
        }
        if let question = utf8[(colon + 1)..<end].firstIndex(of: UInt8(ascii: "?")) {
            guard isValid(utf8, question + 1..<end, allowing: .query) else { return false }
            end = question
        }
        var pathStart = colon + 1
        if end - pathStart >= 2 && utf8[pathStart] == UInt8(ascii: "/") && utf8[pathStart + 1] == UInt8(ascii: "/") {
            let authorityStart = pathStart + 2
            let authorityEnd = utf8[authorityStart..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            guard isAuthority(utf8, authorityStart..<authorityEnd) else { return false }
            pathStart = authorityEnd
        }
        return isValid(utf8, pathStart..<end, allowing: .pathOrSlash)
    }

    /// `[ userinfo "@" ] host [ ":" port ]`: `@` only once (userinfo cannot hold one), `[` and `]` only
    /// around an IP literal, a port of digits only.
    private static func isAuthority(_ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var hostStart = range.lowerBound
        if let at = utf8[range].firstIndex(of: UInt8(ascii: "@")) {
            guard isValid(utf8, range.lowerBound..<at, allowing: .userInfo) else { return false }
            hostStart = at + 1
        }
        var portStart: Int?
        if hostStart < range.upperBound && utf8[hostStart] == UInt8(ascii: "[") {
            guard let close = utf8[hostStart..<range.upperBound].firstIndex(of: UInt8(ascii: "]")),
                close > hostStart + 1
            else { return false }
            let literal = UnsafeBufferPointer(rebasing: utf8[(hostStart + 1)..<close])
            guard literal.allSatisfy(CharacterClass.userInfo.contains) else {
                return false
            }
            if close + 1 < range.upperBound {
                guard utf8[close + 1] == UInt8(ascii: ":") else { return false }
                portStart = close + 2
            }
        } else {
            let hostEnd = utf8[hostStart..<range.upperBound].firstIndex(of: UInt8(ascii: ":")) ?? range.upperBound
            guard isValid(utf8, hostStart..<hostEnd, allowing: .host) else {
                return false
            }
            if hostEnd < range.upperBound { portStart = hostEnd + 1 }
        }
        if let portStart {
            return UnsafeBufferPointer(rebasing: utf8[portStart..<range.upperBound]).allSatisfy(isDigit)
        }
        return true
    }

    /// Whether every byte of `range` is allowed or starts a `%XX` escape.
    private static func isValid(
        _ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, allowing allowed: CharacterClass
    ) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < range.upperBound, isHex(utf8[index + 1]), isHex(utf8[index + 2]) else { return false }
                index += 3
                continue
            }
            guard allowed.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    /// A set of ASCII bytes, as two bit masks: testing a byte is a shift, not a chain of comparisons.
    struct CharacterClass {
        /// Bytes 0 to 63, one bit each.
        let low: UInt64
        /// Bytes 64 to 127.
        let high: UInt64

        @inline(__always)
        func contains(_ byte: UInt8) -> Bool {
            if byte < 64 { return low >> UInt64(byte) & 1 != 0 }
            if byte < 128 { return high >> UInt64(byte - 64) & 1 != 0 }
            return false
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
    }

    /// An absolute `http` or `https` URL (scheme compared case-insensitively) with a non-empty host.
    static func isImageURL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isImageURL(bytes:))
    }

    static func isImageURL(bytes utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard isAbsoluteURI(bytes: utf8) else { return false }
        var index = 0
        for expected in "http".utf8 {
            guard index < utf8.count, utf8[index] | 0x20 == expected else { return false }
            index += 1
        }
        if index < utf8.count, utf8[index] | 0x20 == UInt8(ascii: "s") { index += 1 }
        for expected in "://".utf8 {
            guard index < utf8.count, utf8[index] == expected else { return false }
            index += 1
        }
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
        if utf8[hostStart] == UInt8(ascii: "[") {
            return hostStart + 1 < end && utf8[hostStart + 1] != UInt8(ascii: "]")
        }
        return utf8[hostStart] != UInt8(ascii: ":")
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
