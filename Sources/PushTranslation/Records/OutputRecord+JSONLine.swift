import PushModel

extension OutputRecord {
    /// The record as one line of `pushgate translate` (SPEC section 8), without the newline:
    /// `{"topic":..,"format":..,"key":..,"headers":[[NAME,VALUE],..],"value":..}`; a dead letter has
    /// `"format":null`, `"value"` the input as text (invalid UTF-8 as U+FFFD) and `"value_base64"`.
    public func jsonLine() -> [UInt8] {
        var writer = JSONWriter(capacity: value.count * 2 + 256)
        writer.beginObject()
        writer.key("topic")
        writer.string(topic)
        writer.key("format")
        if let format { writer.string(format.rawValue) } else { writer.null() }
        writer.key("key")
        if let key { writer.string(String(decoding: key, as: UTF8.self)) } else { writer.null() }
        writer.key("headers")
        writer.beginArray()
        for header in headers {
            writer.beginArray()
            writer.string(header.name)
            if let headerValue = header.value {
                writer.string(String(decoding: headerValue, as: UTF8.self))
            } else {
                writer.null()
            }
            writer.endArray()
        }
        writer.endArray()
        writer.key("value")
        if format != nil {
            writer.raw(value)
        } else {
            writer.string(String(decoding: value, as: UTF8.self))
            writer.key("value_base64")
            writer.string(Base64.encode(Array(value)))
        }
        writer.endObject()
        return writer.bytes
    }
}

/// Standard base64 (RFC 4648, with padding), without Foundation.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(alphabet[Int(chunk >> 18 & 63)])
            out.append(alphabet[Int(chunk >> 12 & 63)])
            out.append(alphabet[Int(chunk >> 6 & 63)])
            out.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining > 0 {
            let first = UInt32(bytes[index]) << 16
            let second = remaining == 2 ? UInt32(bytes[index + 1]) << 8 : 0
            let chunk = first | second
            out.append(alphabet[Int(chunk >> 18 & 63)])
            out.append(alphabet[Int(chunk >> 12 & 63)])
            out.append(remaining == 2 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }
}
