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
        write(size: Self.attributeFieldSize(field, key: key, attribute)) {
            $0.attributeField(field, key: key, attribute)
        }
    }

    /// How many bytes ``attributeField(_:key:_:)`` writes.
    static func attributeFieldSize(_ field: UInt64, key: TraceAttributeKey, _ attribute: TraceAttribute) -> Int {
        attributeFieldSize(field, key: key, anyValueLength: anyValueLength(attribute))
    }

    fileprivate static func anyValueLength(_ attribute: TraceAttribute) -> Int {
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

    fileprivate static func arrayValueLength(_ texts: [String]) -> Int {
        var length = 0
        for text in texts { length += lengthDelimitedSize(1, length: lengthDelimitedSize(1, length: text.utf8.count)) }
        return length
    }
}

extension ProtobufCursor {
    /// ``ProtobufWriter/attributeField(_:key:_:)``, into room made for it
    /// (``ProtobufWriter/attributeFieldSize(_:key:_:)`` bytes).
    mutating func attributeField(_ field: UInt64, key: TraceAttributeKey, _ attribute: TraceAttribute) {
        let valueLength = ProtobufWriter.anyValueLength(attribute)
        attributeHeader(field, key: key, anyValueLength: valueLength)
        switch attribute {
        case .string(let text): stringField(1, text)
        case .utf8(let bytes): bytes.withUnsafeBytes { bytesField(1, $0) }
        case .int(let number): varintField(3, UInt64(bitPattern: number))
        case .decimal(let number):
            lengthDelimitedHeader(1, length: ProtobufWriter.decimalLength(number))
            decimal(number, length: ProtobufWriter.decimalLength(number))
        case .strings(let texts):
            lengthDelimitedHeader(5, length: ProtobufWriter.arrayValueLength(texts))
            for text in texts {
                lengthDelimitedHeader(1, length: ProtobufWriter.lengthDelimitedSize(1, length: text.utf8.count))
                stringField(1, text)
            }
        }
    }

    /// An attribute's field up to its value: the `KeyValue`'s header, its key, and the header of its `AnyValue` of
    /// `anyValueLength` bytes, which comes next.
    @inline(__always)
    mutating func attributeHeader(_ field: UInt64, key: TraceAttributeKey, anyValueLength: Int) {
        lengthDelimitedHeader(
            field, length: key.field.count + ProtobufWriter.lengthDelimitedSize(2, length: anyValueLength))
        key.field.withUnsafeBytes { raw($0) }
        lengthDelimitedHeader(2, length: anyValueLength)
    }

    /// A string attribute whose UTF-8 bytes are `text`: as ``attributeField(_:key:_:)`` writes `.utf8`, without
    /// the enum.
    mutating func stringAttribute(_ field: UInt64, key: TraceAttributeKey, _ text: UnsafeRawBufferPointer) {
        attributeHeader(field, key: key, anyValueLength: ProtobufWriter.lengthDelimitedSize(1, length: text.count))
        bytesField(1, text)
    }

    /// A string attribute of `number`'s decimal digits (`.decimal`), `length` of them
    /// (``ProtobufWriter/decimalLength(_:)``).
    mutating func decimalAttribute(_ field: UInt64, key: TraceAttributeKey, _ number: Int64, length: Int) {
        attributeHeader(field, key: key, anyValueLength: ProtobufWriter.lengthDelimitedSize(1, length: length))
        lengthDelimitedHeader(1, length: length)
        decimal(number, length: length)
    }

    /// An integer attribute (`.int`).
    mutating func intAttribute(_ field: UInt64, key: TraceAttributeKey, _ number: Int64) {
        let value = UInt64(bitPattern: number)
        attributeHeader(field, key: key, anyValueLength: ProtobufWriter.tagSize(3) + ProtobufWriter.varintSize(value))
        varintField(3, value)
    }
}

extension ProtobufWriter {
    /// How many bytes an attribute field takes whose `AnyValue` is `anyValueLength` bytes long.
    @inline(__always)
    static func attributeFieldSize(_ field: UInt64, key: TraceAttributeKey, anyValueLength: Int) -> Int {
        lengthDelimitedSize(field, length: key.field.count + lengthDelimitedSize(2, length: anyValueLength))
    }

    /// ``ProtobufCursor/stringAttribute(_:key:_:)``'s size for a string of `length` bytes.
    static func stringAttributeSize(_ field: UInt64, key: TraceAttributeKey, length: Int) -> Int {
        attributeFieldSize(field, key: key, anyValueLength: lengthDelimitedSize(1, length: length))
    }

    /// ``ProtobufCursor/intAttribute(_:key:_:)``'s size.
    static func intAttributeSize(_ field: UInt64, key: TraceAttributeKey, _ number: Int64) -> Int {
        attributeFieldSize(field, key: key, anyValueLength: tagSize(3) + varintSize(UInt64(bitPattern: number)))
    }
}

extension TraceAttribute {
    /// Whether `bytes` are valid UTF-8: ASCII is checked eight bytes at a time, without making a `String`.
    static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        let ascii = bytes.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            var high: UInt64 = 0
            while offset + 8 <= bytes.count {
                high |= bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            var tail: UInt8 = 0
            while offset < bytes.count {
                tail |= bytes[offset]
                offset += 1
            }
            return high & 0x8080_8080_8080_8080 == 0 && tail & 0x80 == 0
        }
        return ascii || String(validating: bytes, as: UTF8.self) != nil
    }
}
