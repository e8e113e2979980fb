/// The value of a span's or resource's attribute: the OTLP `AnyValue` kinds pushgate writes.
public enum TraceAttribute: Sendable, Equatable {
    case string(String)
    /// A string given as its UTF-8 bytes, which the caller has checked are valid UTF-8.
    case utf8(ArraySlice<UInt8>)
    case int(Int64)
    /// A string attribute of an integer's decimal digits (as `messaging.destination.partition.id` is), written
    /// without making a `String`.
    case decimal(Int64)
    case strings([String])
}

/// An attribute's name, encoded once as the `key` field (1) of an OTLP `KeyValue`: for the attributes set on every
/// sampled record, whose names would otherwise be measured and copied from their strings span after span.
public struct TraceAttributeKey: Sendable {
    /// The field's tag, length and the name's UTF-8 bytes.
    let field: [UInt8]

    /// The key `name`.
    public init(_ name: String) {
        var writer = ProtobufWriter()
        writer.stringField(1, name)
        field = writer.bytes
    }
}

extension ProtobufWriter {
    /// `attribute` named `key` as an OTLP `KeyValue` (key = 1, value = 2: an `AnyValue` with string_value = 1,
    /// int_value = 3 or array_value = 5, whose `ArrayValue` has values = 1), the field `field` of its message.
    mutating func attributeField(_ field: UInt64, key: String, _ attribute: TraceAttribute) {
        attributeField(field, key: TraceAttributeKey(key), attribute)
    }

    /// ``attributeField(_:key:_:)`` with the key's field written already.
    mutating func attributeField(_ field: UInt64, key: TraceAttributeKey, _ attribute: TraceAttribute) {
        key.field.withUnsafeBytes { attributeField(field, $0, attribute) }
    }

    /// `key`: the key's field, written.
    private mutating func attributeField(_ field: UInt64, _ key: UnsafeRawBufferPointer, _ attribute: TraceAttribute) {
        let valueLength = Self.anyValueLength(attribute)
        let keyValueLength = key.count + Self.lengthDelimitedSize(2, length: valueLength)
        write(size: Self.lengthDelimitedSize(field, length: keyValueLength)) { cursor in
            cursor.lengthDelimitedHeader(field, length: keyValueLength)
            cursor.raw(key)
            cursor.lengthDelimitedHeader(2, length: valueLength)
            switch attribute {
            case .string(let text): cursor.stringField(1, text)
            case .utf8(let bytes): bytes.withUnsafeBytes { cursor.bytesField(1, $0) }
            case .int(let number): cursor.varintField(3, UInt64(bitPattern: number))
            case .decimal(let number):
                cursor.lengthDelimitedHeader(1, length: Self.decimalLength(number))
                cursor.decimal(number, length: Self.decimalLength(number))
            case .strings(let texts):
                cursor.lengthDelimitedHeader(5, length: Self.arrayValueLength(texts))
                for text in texts {
                    cursor.lengthDelimitedHeader(1, length: Self.lengthDelimitedSize(1, length: text.utf8.count))
                    cursor.stringField(1, text)
                }
            }
        }
    }

    private static func anyValueLength(_ attribute: TraceAttribute) -> Int {
        switch attribute {
        case .string(let text): lengthDelimitedSize(1, length: text.utf8.count)
        case .utf8(let bytes): lengthDelimitedSize(1, length: bytes.count)
        case .int(let number): tagSize(3) + varintSize(UInt64(bitPattern: number))
        case .decimal(let number): lengthDelimitedSize(1, length: decimalLength(number))
        case .strings(let texts): lengthDelimitedSize(5, length: arrayValueLength(texts))
        }
    }

    /// How many characters `number` takes in decimal, with its sign.
    static func decimalLength(_ number: Int64) -> Int {
        var magnitude = number.magnitude
        var length = number < 0 ? 2 : 1
        while magnitude >= 10 {
            magnitude /= 10
            length += 1
        }
        return length
    }

    private static func arrayValueLength(_ texts: [String]) -> Int {
        var length = 0
        for text in texts { length += lengthDelimitedSize(1, length: lengthDelimitedSize(1, length: text.utf8.count)) }
        return length
    }
}

extension TraceAttribute {
    /// `bytes` as a string attribute when they are valid UTF-8 (checked without making a `String` when they are
    /// ASCII); `nil` otherwise.
    static func validUTF8(_ bytes: ArraySlice<UInt8>) -> TraceAttribute? {
        var ascii = true
        for byte in bytes where byte >= 0x80 {
            ascii = false
            break
        }
        guard ascii || String(validating: bytes, as: UTF8.self) != nil else { return nil }
        return .utf8(bytes)
    }
}
