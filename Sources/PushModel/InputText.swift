/// A string of the input payload, by position: the raw bytes between its quotes. The IR refers to the
/// payload's strings instead of copying them; an emitter reads them from the same input bytes, copying
/// them unchanged when they hold no escape (they are then already written as SPEC section 2 wants).
public struct InputText: Sendable, Equatable {
    // Stored as 32-bit offsets (as the parsed document's tokens are): the IR holds dozens of optional
    // texts, and copying it is copying them; 9 bytes each instead of 17.
    @usableFromInline var storedStart: UInt32
    @usableFromInline var storedLength: UInt32
    /// Whether the raw bytes hold a backslash escape, so they must be decoded before use.
    public var isEscaped: Bool

    /// Offset of the first byte after the opening quote.
    @inlinable
    public var start: Int {
        get { Int(storedStart) }
        set { storedStart = UInt32(truncatingIfNeeded: newValue) }
    }

    /// Raw length in bytes, escapes as written (`0` for `""`).
    @inlinable
    public var length: Int {
        get { Int(storedLength) }
        set { storedLength = UInt32(truncatingIfNeeded: newValue) }
    }

    /// Creates a reference to the raw bytes `start..<start+length` of the input (offsets below 2^32, as
    /// the parsed document's tokens have them).
    @inlinable
    public init(start: Int, length: Int, isEscaped: Bool) {
        self.storedStart = UInt32(truncatingIfNeeded: start)
        self.storedLength = UInt32(truncatingIfNeeded: length)
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
