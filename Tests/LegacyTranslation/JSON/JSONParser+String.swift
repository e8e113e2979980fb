extension JSONParser {
    /// Reads a string starting at its opening quote; the index ends after the closing quote.
    mutating func parseString() throws(JSONParseFailure) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw invalid("control character in a string must be escaped") }
            index += 1
        }
        guard index < bytes.count else { throw invalid("unterminated string") }
        var scalars = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &scalars)
            case 0x00..<0x20:
                throw invalid("control character in a string must be escaped")
            default:
                scalars.append(byte)
                index += 1
            }
        }
        throw invalid("unterminated string")
    }

    private mutating func parseEscape(into out: inout [UInt8]) throws(JSONParseFailure) {
        index += 1
        guard index < bytes.count else { throw invalid("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            let escapeStart = index - 2
            let unit = try parseHex4()
            var scalarValue = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw unpairedSurrogate(at: escapeStart) }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw unpairedSurrogate(at: escapeStart) }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw unpairedSurrogate(at: escapeStart)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else { throw unpairedSurrogate(at: escapeStart) }
            UTF8.encode(scalar) { out.append($0) }
        default:
            index -= 1
            throw invalid("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func parseHex4() throws(JSONParseFailure) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw invalid("unterminated \\u escape") }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw invalid("expected 4 hex digits in a \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private func unpairedSurrogate(at offset: Int) -> JSONParseFailure {
        JSONParseFailure(
            kind: .invalidJSON, offset: offset,
            message: "invalid JSON at byte \(offset): \\u escape encodes an unpaired surrogate")
    }
}

