/// The color forms of SPEC sections 3, 5.2 and 5.3, checked on the decoded UTF-8 bytes of the input.
/// Hex digits may be in either case. Colors are at most 9 bytes: the strings made here are stored
/// inline, never allocated, and made only for a valid color.
enum ColorRules {
    /// `#RRGGBB` (Android LED color), as given.
    static func androidLEDColor(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        guard utf8.count == 7, utf8[0] == UInt8(ascii: "#"), areHex(utf8, from: 1) else { return nil }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Adobe: 6 hex digits with or without `#`, normalized to 6 upper-case digits without `#`.
    static func adobeColor(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        let start = utf8.first == UInt8(ascii: "#") ? 1 : 0
        guard utf8.count - start == 6, areHex(utf8, from: start) else { return nil }
        return upperCased(utf8, from: start, suffix: "")
    }

    /// Facebook card: `#RRGGBB` or `#RRGGBBAA`, normalized to `#RRGGBBAA` upper case (alpha `FF` when absent).
    static func cardColor(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        guard utf8.first == UInt8(ascii: "#"), utf8.count == 7 || utf8.count == 9, areHex(utf8, from: 1) else {
            return nil
        }
        return upperCased(utf8, from: 0, suffix: utf8.count == 7 ? "FF" : "")
    }

    /// The bytes from `start` upper-cased, then `suffix`: at most 9 bytes, made into an inline string.
    private static func upperCased(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int, suffix: StaticString)
        -> String
    {
        let count = utf8.count - start + suffix.utf8CodeUnitCount
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            var index = 0
            for byte in UnsafeBufferPointer(rebasing: utf8[start...]) {
                buffer[index] = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f") ? byte - 0x20 : byte
                index += 1
            }
            for offset in 0..<suffix.utf8CodeUnitCount {
                buffer[index] = suffix.utf8Start[offset]
                index += 1
            }
            return String(decoding: UnsafeBufferPointer(buffer), as: UTF8.self)
        }
    }

    /// Whether every byte from `start` on is a hex digit.
    private static func areHex(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        for index in start..<utf8.count where !isHex(utf8[index]) { return false }
        return true
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
