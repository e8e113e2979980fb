/// base64url (RFC 4648 section 5) as web push subscriptions write their keys (SPEC 10.1).
enum Base64URL {
    /// The bytes `text` encodes, or `nil` when it is not base64url. Trailing `=` padding is accepted and
    /// ignored; the standard alphabet's `+` and `/`, whitespace and a length that no bytes encode (one
    /// character past a multiple of four) are not base64url.
    static func decode(_ text: String) -> [UInt8]? {
        var characters = Array(text.utf8)
        while characters.last == UInt8(ascii: "=") { characters.removeLast() }
        guard characters.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for character in characters {
            guard let sextet = value(of: character) else { return nil }
            buffer = buffer << 6 | UInt32(sextet)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return bytes
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}

/// Whether a text is an absolute URL with an authority, as a push service's endpoint must be (SPEC 10.1).
enum AbsoluteURL {
    /// `true` for `SCHEME://HOST...` (RFC 3986: a scheme of a letter then letters, digits, `+`, `-` or `.`;
    /// a non-empty host, after any `userinfo@`, before any `:port`), with no space, control character or
    /// character outside ASCII. Whether the endpoint is allowed is decided when a push is sent (SPEC 10.5).
    static func isAbsolute(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
        let scheme = bytes[..<colon]
        guard isLetter(scheme[scheme.startIndex]),
            scheme.allSatisfy({ isLetter($0) || isDigit($0) || "+-.".utf8.contains($0) })
        else { return false }
        let rest = bytes[(colon + 1)...]
        guard rest.starts(with: "//".utf8) else { return false }
        let authority = rest.dropFirst(2).prefix { !"/?#".utf8.contains($0) }
        let hostAndPort = authority.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false).last ?? []
        let host: ArraySlice<UInt8>
        if hostAndPort.first == UInt8(ascii: "[") {
            guard let close = hostAndPort.firstIndex(of: UInt8(ascii: "]")) else { return false }
            host = hostAndPort[hostAndPort.startIndex...close]
        } else {
            host = hostAndPort.prefix { $0 != UInt8(ascii: ":") }
        }
        return !host.isEmpty
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
