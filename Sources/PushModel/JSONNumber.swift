/// A JSON number kept as its source text, which is valid RFC 8259 number syntax.
public struct JSONNumber: Sendable, Equatable, Hashable {
    /// The number exactly as written in the input.
    public let text: String

    /// Wraps number text; the caller guarantees RFC 8259 number syntax.
    public init(text: String) { self.text = text }

    /// Whether the number is negative (`-0` is not: it equals zero).
    public var isNegative: Bool { text.hasPrefix("-") && (doubleValue ?? 0) != 0 }

    /// The value as a `Double`, `nil` when it is out of `Double`'s finite range (`1e400`).
    public var doubleValue: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
