import PushgateTracing

/// The bytes of a receipt record (SPEC 10.7): its key, its compact JSON value and its headers.
extension Receipt {
    /// The names of the receipt's own headers, in the order they are written.
    public enum HeaderName {
        /// The outcome.
        public static let outcome = "pushgate-outcome"
        /// The delivered record's `pushgate-source`.
        public static let source = "pushgate-source"
        /// The delivered record's `pushgate-id`.
        public static let id = "pushgate-id"
    }

    /// The record's key as UTF-8 bytes, `nil` when there is none.
    public var keyBytes: [UInt8]? { key.map { Array($0.utf8) } }

    /// The value: compact JSON, members in the order of SPEC 10.7, each only when known.
    public var value: [UInt8] {
        var json = ReceiptJSON()
        json.string("outcome", outcome.rawValue)
        json.string("platform", platform.rawValue)
        json.string("device", device)
        json.string("audience", audience)
        json.string("app", app)
        json.string("record", record)
        json.string("source", source)
        json.string("id", id)
        json.string("format", format)
        json.integer("status", status.map(Int64.init))
        json.string("reason", reason)
        json.integer("gone_since", goneSince)
        json.integer("attempts", attempts.map(Int64.init))
        json.integer("at", at)
        json.string("apns_id", apnsID)
        json.string("message_id", messageID)
        json.string("location", location)
        return json.finish()
    }

    /// The headers, in order: `pushgate-outcome`, then `pushgate-source` and `pushgate-id` when known, then
    /// `traceparent` and `tracestate` when traced.
    public var headers: [(name: String, value: [UInt8])] {
        var headers: [(name: String, value: [UInt8])] = [(HeaderName.outcome, Array(outcome.rawValue.utf8))]
        if let source { headers.append((HeaderName.source, Array(source.utf8))) }
        if let id { headers.append((HeaderName.id, Array(id.utf8))) }
        if let trace {
            headers.append((TraceHeaders.traceparentName, trace.traceparentBytes))
            if let tracestate = trace.tracestate {
                headers.append((TraceHeaders.tracestateName, Array(tracestate.utf8)))
            }
        }
        return headers
    }
}

/// A compact JSON object written member by member, with the escapes JSON requires and no others (the
/// same as the translator's outputs: `\"`, `\\`, `\n \r \t \b \f`, other control characters as `\u00xx`
/// with lower-case hex digits, `/` and non-ASCII as they are).
struct ReceiptJSON {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var empty = true

    /// Appends `"name":"value"` when `value` is not `nil`.
    mutating func string(_ name: String, _ value: String?) {
        guard let value else { return }
        member(name)
        Self.appendString(value, to: &bytes)
    }

    /// Appends `"name":value` when `value` is not `nil`.
    mutating func integer(_ name: String, _ value: Int64?) {
        guard let value else { return }
        member(name)
        bytes += String(value).utf8
    }

    /// The object, closed.
    consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func member(_ name: String) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        Self.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends `text` as a JSON string.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x00..<0x20:
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
                bytes += [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
