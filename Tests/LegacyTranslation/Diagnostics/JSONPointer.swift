/// Builds RFC 6901 JSON Pointers: `~` is written `~0` and `/` is written `~1` in each token.
enum JSONPointer {
    /// `base` extended by one member name.
    static func appending(_ base: String, _ name: String) -> String {
        var needsEscape = false
        for byte in name.utf8 where byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") {
            needsEscape = true
            break
        }
        guard needsEscape else {
            var path = base
            path.reserveCapacity(base.utf8.count + name.utf8.count + 1)
            path.append("/")
            path.append(name)
            return path
        }
        var token = ""
        for character in name.unicodeScalars {
            switch character {
            case "~": token += "~0"
            case "/": token += "~1"
            default: token.unicodeScalars.append(character)
            }
        }
        return base + "/" + token
    }

    /// `base` extended by one array index.
    static func appending(_ base: String, _ index: Int) -> String { base + "/" + String(index) }
}
