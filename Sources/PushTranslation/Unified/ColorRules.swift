/// The color forms of SPEC sections 3, 5.2 and 5.3. Hex digits may be in either case. Colors are at
/// most 9 bytes: the strings made here are stored inline, never allocated.
enum ColorRules {
    /// `#RRGGBB` (Android LED color).
    static func isAndroidLEDColor(_ text: String) -> Bool {
        let utf8 = text.utf8
        return utf8.count == 7 && utf8.first == UInt8(ascii: "#") && utf8.dropFirst().allSatisfy(isHex)
    }

    /// Adobe: 6 hex digits with or without `#`, normalized to 6 upper-case digits without `#`.
    static func adobeColor(_ text: String) -> String? {
        var utf8 = Substring(text).utf8[...]
        if utf8.first == UInt8(ascii: "#") { utf8 = utf8.dropFirst() }
        guard utf8.count == 6, utf8.allSatisfy(isHex) else { return nil }
        return upperCased(utf8, suffix: "")
    }

    /// Facebook card: `#RRGGBB` or `#RRGGBBAA`, normalized to `#RRGGBBAA` upper case (alpha `FF` when absent).
    static func cardColor(_ text: String) -> String? {
        let utf8 = text.utf8
        guard utf8.first == UInt8(ascii: "#"), utf8.count == 7 || utf8.count == 9, utf8.dropFirst().allSatisfy(isHex)
        else {
            return nil
        }
        return upperCased(utf8[...], suffix: utf8.count == 7 ? "FF" : "")
    }

    /// The hex digits upper-cased, then `suffix`: at most 9 bytes, made into an inline string.
    private static func upperCased(_ utf8: Substring.UTF8View, suffix: StaticString) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count + suffix.utf8CodeUnitCount) { buffer in
            var count = 0
            for byte in utf8 {
                buffer[count] = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f") ? byte - 0x20 : byte
                count += 1
            }
            for offset in 0..<suffix.utf8CodeUnitCount {
                buffer[count] = suffix.utf8Start[offset]
                count += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
