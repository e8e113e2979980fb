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
        for byte in UnsafeBufferPointer(rebasing: utf8[1..<colon]) where !(isAlpha(byte) || isDigit(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E) {
            return false
        }
        var index = colon + 1
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < utf8.count, isHex(utf8[index + 1]), isHex(utf8[index + 2]) else { return false }
                index += 3
                continue
            }
            guard isAllowed(byte) else { return false }
            index += 1
        }
        return true
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
        while end < utf8.count, utf8[end] != UInt8(ascii: "/"), utf8[end] != UInt8(ascii: "?"), utf8[end] != UInt8(ascii: "#") {
            end += 1
        }
        var hostStart = index
        for position in index..<end where utf8[position] == UInt8(ascii: "@") { hostStart = position + 1 }
        guard hostStart < end else { return false }
        if utf8[hostStart] == UInt8(ascii: "[") { return hostStart + 1 < end && utf8[hostStart + 1] != UInt8(ascii: "]") }
        return utf8[hostStart] != UInt8(ascii: ":")
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    /// RFC 3986 unreserved, gen-delims and sub-delims.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        if isAlpha(byte) || isDigit(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }
}
