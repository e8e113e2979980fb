import PushModel

/// A JSON value as read from the input, keeping what output needs to be byte-exact:
/// member order, and numbers as their original text.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as the exact text it was written with (`1.50` stays `1.50`).
    case number(JSONNumber)
    /// A string, decoded.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object, members in input order (names are unique: duplicates are refused at parse).
    case object(JSONObject)

    /// The JSON type name used in messages: `null`, `boolean`, `number`, `string`, `array`, `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON number kept as its source text, which is valid RFC 8259 number syntax.
public struct JSONNumber: Sendable, Equatable, Hashable {
    /// The number exactly as written in the input.
    public let text: String

    /// Wraps number text; the caller guarantees RFC 8259 number syntax.
    public init(text: String) { self.text = text }

    /// Whether the text is an integer in SPEC's sense: no fraction and no exponent.
    public var isInteger: Bool {
        !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
    }

    /// Whether the number is negative (`-0` is not: it equals zero).
    public var isNegative: Bool { text.hasPrefix("-") && (doubleValue ?? 0) != 0 }

    /// The value as a `Double`, `nil` when it is out of `Double`'s finite range (`1e400`).
    public var doubleValue: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The value as an `Int64` when it is an integer that fits, else `nil`.
    public var int64Value: Int64? {
        guard isInteger else { return nil }
        return Int64(text)
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    /// The member name.
    public var name: String
    /// The member value.
    public var value: JSONValue

    /// Creates a member.
    public init(name: String, value: JSONValue) {
        self.name = name
        self.value = value
    }
}

/// A JSON object: members in input order, names unique.
public struct JSONObject: Sendable, Equatable {
    /// The members in input order.
    public var members: [JSONMember]

    /// Creates an object from members in order.
    public init(_ members: [JSONMember] = []) { self.members = members }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The value of the member named `name`, if any.
    public subscript(name: String) -> JSONValue? {
        for member in members where member.name == name { return member.value }
        return nil
    }
}
