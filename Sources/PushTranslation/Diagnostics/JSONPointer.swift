/// Builds RFC 6901 JSON Pointers: `~` is written `~0` and `/` is written `~1` in each token.
enum JSONPointer {
    /// `base` extended by one member name.
    static func appending(_ base: String, _ name: String) -> String {
        var needsEscape = false
        for byte in name.utf8 where byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") {
            needsEscape = true
            break
        }
        guard needsEscape else { return joined(base, name) }
        var token = ""
        for character in name.unicodeScalars {
            switch character {
            case "~": token += "~0"
            case "/": token += "~1"
            default: token.unicodeScalars.append(character)
            }
        }
        return joined(base, token)
    }

    /// `base` extended by one array index.
    static func appending(_ base: String, _ index: Int) -> String { joined(base, String(index)) }

    /// `base/token`, written into one new string (no intermediate one).
    private static func joined(_ base: String, _ token: String) -> String {
        var base = base
        var token = token
        return base.withUTF8 { baseBytes in
            token.withUTF8 { tokenBytes in
                String(unsafeUninitializedCapacity: baseBytes.count + 1 + tokenBytes.count) { buffer in
                    var position = buffer.initialize(fromContentsOf: baseBytes)
                    buffer[position] = UInt8(ascii: "/")
                    position += 1
                    position = buffer[position...].initialize(fromContentsOf: tokenBytes)
                    return position
                }
            }
        }
    }
}
