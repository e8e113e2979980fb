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
