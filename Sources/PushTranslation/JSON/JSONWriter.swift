import PushModel

/// Writes compact JSON into a byte buffer: no insignificant white space, only the escapes JSON requires
/// (`\"`, `\\`, and control characters as `\n \r \t \b \f` or `\u00xx`), `/` and non-ASCII raw,
/// numbers as given. Commas are placed automatically between members and elements.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public internal(set) var bytes: [UInt8]
    var needsComma = false

    /// Creates a writer with room for `capacity` bytes.
    public init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Starts an object (a value).
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Ends an object.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Starts an array (a value).
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Ends an array.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member name; the next call writes its value.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member name given at run time; the next call writes its value.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a string value.
    public mutating func string(_ text: String) {
        separate()
        appendQuoted(text)
        needsComma = true
    }

    /// Writes a string value known at compile time (no escaping needed).
    public mutating func string(_ text: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes a number exactly as it was written in the input.
    public mutating func number(_ number: JSONNumber) {
        separate()
        bytes.append(contentsOf: number.text.utf8)
        needsComma = true
    }

    /// Writes a plain integer that pushgate makes.
    public mutating func integer(_ value: Int64) {
        separate()
        appendDecimal(value)
        needsComma = true
    }

    /// Appends the decimal digits of `value` (no allocation).
    mutating func appendDecimal(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 20 digits, written back to front
        let count = withUnsafeMutableBytes(of: &digits) { buffer in
            var position = buffer.count
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            return buffer.count - position
        }
        withUnsafeBytes(of: &digits) { buffer in bytes.append(contentsOf: buffer[(buffer.count - count)...]) }
    }

    /// Appends the bytes of a compile-time string as they are.
    mutating func appendStatic(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        appendStatic(value ? "true" : "false")
        needsComma = true
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        appendStatic("null")
        needsComma = true
    }

    /// Appends already-encoded JSON (a complete value) as the next value.
    public mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    private static func lowerHex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10 }

    /// Writes `,` when a value or member came before in the current container.
    mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for position in 0..<utf8.count {
                let byte = utf8[position]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < position {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                }
                appendEscape(byte)
                runStart = position + 1
            }
            if runStart < utf8.count {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            bytes.append(UInt8(ascii: "u"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(Self.lowerHex(byte >> 4))
            bytes.append(Self.lowerHex(byte & 0x0F))
        }
    }
}

extension JSONWriter {
    /// Encodes a string as a complete JSON string value.
    static func encodedString(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
