/// Builds RFC 6901 JSON Pointers: `~` is written `~0` and `/` is written `~1` in each token.
enum JSONPointer {
    /// `base` extended by one member name.
    static func appending(_ base: String, _ name: String) -> String {
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            return base + "/" + name
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
