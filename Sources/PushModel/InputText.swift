/// A string of the input payload, by position: the raw bytes between its quotes. The IR refers to the
/// payload's strings instead of copying them; an emitter reads them from the same input bytes, copying
/// them unchanged when they hold no escape (they are then already written as SPEC section 2 wants).
public struct InputText: Sendable, Equatable {
    /// Offset of the first byte after the opening quote.
    public var start: Int
    /// Raw length in bytes, escapes as written (`0` for `""`).
    public var length: Int
    /// Whether the raw bytes hold a backslash escape, so they must be decoded before use.
    public var isEscaped: Bool

    /// Creates a reference to the raw bytes `start..<start+length` of the input.
    public init(start: Int, length: Int, isEscaped: Bool) {
        self.start = start
        self.length = length
        self.isEscaped = isEscaped
    }
}

/// A value of the input payload (any JSON type), by its index in the parsed document: custom data,
/// an action's `value` and its further keys are written from the input as they are.
public struct InputValue: Sendable, Equatable {
    /// The index of the value's first token in the parsed document.
    public var token: Int

    /// Refers to the value whose first token is `token`.
    public init(token: Int) { self.token = token }
}

/// Localization arguments: an array of strings, or one string taken as a one-element array.
public enum LocArgs: Sendable, Equatable {
    /// One string, written as a one-element array.
    case single(InputText)
    /// An array of strings, by its position in the input.
    case array(InputValue)
}
