/// The value of a span's or resource's attribute: the OTLP `AnyValue` kinds pushgate writes.
public enum TraceAttribute: Sendable, Equatable {
    case string(String)
    case int(Int64)
    case strings([String])
}

extension ProtobufWriter {
    /// `attribute` named `key` as an OTLP `KeyValue` (key = 1, value = 2: an `AnyValue` with string_value = 1,
    /// int_value = 3 or array_value = 5, whose `ArrayValue` has values = 1), the field `field` of its message.
    mutating func attributeField(_ field: UInt64, key: String, _ attribute: TraceAttribute) {
        let keyLength = key.utf8.count
        let valueLength = Self.anyValueLength(attribute)
        let keyValueLength =
            Self.lengthDelimitedSize(1, length: keyLength) + Self.lengthDelimitedSize(2, length: valueLength)
        lengthDelimitedHeader(field, length: keyValueLength)
        stringField(1, key)
        lengthDelimitedHeader(2, length: valueLength)
        switch attribute {
        case .string(let text): stringField(1, text)
        case .int(let number): varintField(3, UInt64(bitPattern: number))
        case .strings(let texts):
            lengthDelimitedHeader(5, length: Self.arrayValueLength(texts))
            for text in texts {
                lengthDelimitedHeader(1, length: Self.lengthDelimitedSize(1, length: text.utf8.count))
                stringField(1, text)
            }
        }
    }

    private static func anyValueLength(_ attribute: TraceAttribute) -> Int {
        switch attribute {
        case .string(let text): lengthDelimitedSize(1, length: text.utf8.count)
        case .int(let number): tagSize(3) + varintSize(UInt64(bitPattern: number))
        case .strings(let texts): lengthDelimitedSize(5, length: arrayValueLength(texts))
        }
    }

    private static func arrayValueLength(_ texts: [String]) -> Int {
        var length = 0
        for text in texts { length += lengthDelimitedSize(1, length: lengthDelimitedSize(1, length: text.utf8.count)) }
        return length
    }
}
