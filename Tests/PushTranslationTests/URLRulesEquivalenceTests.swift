import Testing

@testable import PushTranslation

/// The single-pass URL rules against the rules as first written, on generated URL-like texts.
@Suite struct URLRulesEquivalenceTests {
    /// Fragments that make URL-like texts: delimiters, escapes, letters and a two-byte character.
    private static let pieces: [[UInt8]] = [
        "http://", "https://", "HTTP://", "myapp:", "a", "Z", "9", ":", "/", "//", "?", "#", "@", "[", "]", "%",
        "%2f", "%G1", "f", ".", "+", "-", "~", "!", " ", "[::1]", ":80", "x@", "é", "\u{7F}", "h", "s",
        ":65535", ":65536", ":99999", ":0065535", "[v1.x]", "[V", "v", "[v", "6", "5",
    ].map { Array($0.utf8) }

    @Test func agreesWithTheReferenceOnGeneratedTexts() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var mismatches = 0
        for _ in 0..<100_000 {
            var text: [UInt8] = []
            for _ in 0..<next(9) { text += Self.pieces[next(Self.pieces.count)] }
            text.withUnsafeBufferPointer { utf8 in
                if URLRules.isAbsoluteURI(bytes: utf8) != ReferenceURLRules.isAbsoluteURI(bytes: utf8)
                    || URLRules.isImageURL(bytes: utf8) != ReferenceURLRules.isImageURL(bytes: utf8)
                {
                    mismatches += 1
                    Issue.record("disagree on \(String(decoding: utf8, as: UTF8.self))")
                }
            }
            if mismatches > 10 { break }
        }
    }
}

/// The URL rules as first written (several passes per URL), the reference the single-pass rules must
/// agree with.
private enum ReferenceURLRules {
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
            guard isValid(utf8, hash + 1..<end, allowing: CharacterClass.query) else { return false }
            end = hash
        }
        if let question = utf8[(colon + 1)..<end].firstIndex(of: UInt8(ascii: "?")) {
            guard isValid(utf8, question + 1..<end, allowing: CharacterClass.query) else { return false }
            end = question
        }
        var pathStart = colon + 1
        if end - pathStart >= 2 && utf8[pathStart] == UInt8(ascii: "/") && utf8[pathStart + 1] == UInt8(ascii: "/") {
            let authorityStart = pathStart + 2
            let authorityEnd = utf8[authorityStart..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            guard isAuthority(utf8, authorityStart..<authorityEnd) else { return false }
            pathStart = authorityEnd
        }
        return isValid(utf8, pathStart..<end, allowing: CharacterClass.pathOrSlash)
    }

    /// `[ userinfo "@" ] host [ ":" port ]`: `@` only once (userinfo cannot hold one), `[` and `]` only
    /// around an IP literal, a port of digits only.
    private static func isAuthority(_ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var hostStart = range.lowerBound
        if let at = utf8[range].firstIndex(of: UInt8(ascii: "@")) {
            guard isValid(utf8, range.lowerBound..<at, allowing: CharacterClass.userInfo) else { return false }
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
            guard isValid(utf8, hostStart..<hostEnd, allowing: CharacterClass.host) else {
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
        _ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, allowing allowed: URLRules.CharacterClass
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

    private typealias CharacterClass = URLRules.CharacterClass

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
        let hostAndPort = String(decoding: UnsafeBufferPointer(rebasing: utf8[hostStart..<end]), as: UTF8.self)
        let port: Substring
        if hostAndPort.hasPrefix("[") {
            guard hostStart + 1 < end && utf8[hostStart + 1] != UInt8(ascii: "]") else { return false }
            // Version 4: no IPvFuture literal.
            guard !hostAndPort.dropFirst().lowercased().hasPrefix("v") else { return false }
            port =
                hostAndPort.split(separator: "]", maxSplits: 1, omittingEmptySubsequences: false).last?.dropFirst()
                ?? ""
        } else {
            guard utf8[hostStart] != UInt8(ascii: ":") else { return false }
            port =
                hostAndPort.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first
                ?? ""
        }
        // Version 4: a port of at most 65535, leading zeros allowed.
        let significant = port.drop { $0 == "0" }
        return significant.count <= 5 && (Int(significant) ?? 0) <= 65535
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
