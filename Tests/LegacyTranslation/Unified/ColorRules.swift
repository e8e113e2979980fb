/// The color forms of SPEC sections 3, 5.2 and 5.3. Hex digits may be in either case.
enum ColorRules {
    /// `#RRGGBB` (Android LED color), returned unchanged when valid.
    static func isAndroidLEDColor(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return utf8.count == 7 && utf8[0] == UInt8(ascii: "#") && utf8[1...].allSatisfy(isHex)
    }

    /// Adobe: 6 hex digits with or without `#`, normalized to 6 upper-case digits without `#`.
    static func adobeColor(_ text: String) -> String? {
        var utf8 = Substring(text).utf8[...]
        if utf8.first == UInt8(ascii: "#") { utf8 = utf8.dropFirst() }
        guard utf8.count == 6, utf8.allSatisfy(isHex) else { return nil }
        return String(decoding: utf8, as: UTF8.self).uppercased()
    }

    /// Facebook card: `#RRGGBB` or `#RRGGBBAA`, normalized to `#RRGGBBAA` upper case (alpha `FF` when absent).
    static func cardColor(_ text: String) -> String? {
        let utf8 = Array(text.utf8)
        guard utf8.first == UInt8(ascii: "#"), utf8.count == 7 || utf8.count == 9, utf8[1...].allSatisfy(isHex) else {
            return nil
        }
        let upper = text.uppercased()
        return utf8.count == 7 ? upper + "FF" : upper
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
