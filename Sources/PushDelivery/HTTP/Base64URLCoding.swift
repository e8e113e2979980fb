/// Base64url without padding (RFC 4648 section 5), as JWS (RFC 7515) and web push write binary values.
public enum Base64URLCoding {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The base64url text of `bytes`, without `=` padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(group >> 18 & 0x3F)])
            output.append(alphabet[Int(group >> 12 & 0x3F)])
            if second != nil { output.append(alphabet[Int(group >> 6 & 0x3F)]) }
            if third != nil { output.append(alphabet[Int(group & 0x3F)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of base64url text, or `nil` when it is not base64url. Trailing `=` padding is accepted and
    /// ignored; the standard alphabet's `+` and `/`, whitespace, a `=` before the end and a length that no
    /// bytes encode (one character past a multiple of four) are not base64url.
    public static func decode(_ text: String) -> [UInt8]? {
        var characters = Substring(text).utf8
        while characters.last == UInt8(ascii: "=") { characters = characters.dropLast() }
        var values: [UInt8] = []
        values.reserveCapacity(characters.count)
        for byte in characters {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(byte - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(byte - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "-"): values.append(62)
            case UInt8(ascii: "_"): values.append(63)
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            var group: UInt32 = 0
            for (position, value) in chunk.enumerated() { group |= UInt32(value) << (18 - 6 * UInt32(position)) }
            output.append(UInt8(group >> 16 & 0xFF))
            if chunk.count > 2 { output.append(UInt8(group >> 8 & 0xFF)) }
            if chunk.count > 3 { output.append(UInt8(group & 0xFF)) }
            index += 4
        }
        return output
    }
}
