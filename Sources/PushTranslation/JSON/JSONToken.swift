/// One value of a parsed JSON document in its flat token array (a "tape"): containers are followed by
/// their contents, an object's members as a name token then the value's tokens. Strings and numbers
/// are byte ranges of the input; nothing is copied or decoded at parse time.
struct JSONToken {
    /// The JSON type of the value.
    enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null
    }

    /// String: offset of the first byte after the opening quote. Number: offset of its first byte.
    /// Container and literal: offset of its first byte.
    var start: UInt32
    /// String: raw byte length between the quotes. Number: text length. Container: member or element count.
    var length: UInt32
    /// The index of the first token after this value (after a container's contents).
    var end: UInt32
    /// The JSON type.
    var kind: Kind
    /// String: whether the raw bytes hold a backslash escape. Object or array: whether its bytes hold white
    /// space or an escaped string anywhere inside, so that they are not what writing the value gives (see
    /// ``JSONDocument/compactBytes(_:)``).
    var isEscaped: Bool

    /// The JSON type name used in messages: `null`, `boolean`, `number`, `string`, `array`, `object`.
    var typeName: String {
        switch kind {
        case .null: "null"
        case .true, .false: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
