extension JSONDocument {
    /// Decodes the raw bytes of a string that the scanner accepted (every escape valid, surrogates paired).
    static func decode(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < raw.count else {
                out.append(byte)
                index += 1
                continue
            }
            let escape = raw[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                let (scalar, next) = unicodeEscape(raw, at: index)
                index = next
                UTF8.encode(scalar) { out.append($0) }
            default: out.append(escape)  // `"`, `\` and `/` stand for themselves
            }
        }
        return out
    }

    /// The scalar of a `\u` escape whose four hex digits start at `index` (a surrogate pair's second
    /// escape included), and the index after it.
    static func unicodeEscape(_ raw: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
        let unit = hex4(raw, at: index)
        var next = index + 4
        var value = UInt32(unit)
        if (0xD800...0xDBFF).contains(unit), next + 6 <= raw.count {
            let low = hex4(raw, at: next + 2)
            value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            next += 6
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", next)
    }

    private static func hex4(_ raw: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16 {
        var value: UInt16 = 0
        for offset in index..<min(index + 4, raw.count) { value = value << 4 | UInt16(hexValue(raw[offset]) ?? 0) }
        return value
    }

    /// The value of one hex digit, `nil` for any other byte.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A member name fit for a message: control characters escaped, long names shortened.
    static func printable(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars.prefix(64) {
            if scalar.value < 0x20 || scalar == "\"" || scalar == "\\" {
                out += scalar.escaped(asASCII: false)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return name.unicodeScalars.count > 64 ? out + "..." : out
    }
}
