import PushModel

/// Collects the errors and payload warnings of the validate stage and offers typed readers over the
/// parsed document that report `wrong_type` and `out_of_range` as SPEC sections 3 and 9 define them.
struct ValidationContext {
    /// The payload being validated.
    let document: JSONDocument
    /// Whether unknown fields are warnings instead of errors.
    let lenient: Bool
    /// Errors found so far, unsorted.
    var errors: [Diagnostic] = []
    /// Payload warnings found so far (`unknown_field` with `--lenient`), unsorted.
    var warnings: [Diagnostic] = []

    init(document: JSONDocument, lenient: Bool) {
        self.document = document
        self.lenient = lenient
    }

    mutating func error(_ code: DiagnosticCode, _ path: @autoclosure () -> String, _ message: String) {
        Self.append(Diagnostic(code, at: path(), message), to: &errors)
    }

    /// Reports a key that is not part of the object's contract.
    mutating func unknownField(_ path: @autoclosure () -> String, in objectName: @autoclosure () -> String) {
        let diagnostic = Diagnostic(
            .unknownField, at: path(), "unknown field in \(objectName()); remove it or check its spelling")
        if lenient { Self.append(diagnostic, to: &warnings) } else { Self.append(diagnostic, to: &errors) }
    }

    /// Appends `diagnostic`, making room for a few at the first: a payload with one problem often has
    /// more, and an array grown one append at a time allocates again at each doubling. Out of line: the
    /// readers that report are inlined into the validator's paths for valid input.
    @inline(never)
    private static func append(_ diagnostic: Diagnostic, to diagnostics: inout [Diagnostic]) {
        if diagnostics.capacity == 0 { diagnostics.reserveCapacity(8) }
        diagnostics.append(diagnostic)
    }

    mutating func wrongType(_ path: @autoclosure () -> String, expected: String, got token: Int) {
        let message = "expected \(expected), got \(document.typeName(token))"
        error(.wrongType, path(), message)
    }

    // MARK: typed readers

    /// A non-empty string; `wrong_type` or `out_of_range` otherwise. The valid case is inlined into each
    /// reader; the diagnostics are made out of line.
    @inline(__always)
    mutating func string(_ token: Int, _ path: @autoclosure () -> String) -> InputText? {
        let item = document.tokens[token]
        // Any escape decodes to at least one character, so an empty raw string is the only empty one.
        guard item.kind == .string && item.length > 0 else {
            reportNotString(token, path)
            return nil
        }
        return InputText(start: Int(item.start), length: Int(item.length), isEscaped: item.isEscaped)
    }

    /// The diagnostic of a value that is not a non-empty string.
    @inline(never)
    private mutating func reportNotString(_ token: Int, _ path: () -> String) {
        if document.kind(token) == .string {
            error(.outOfRange, path(), "must not be empty")
        } else {
            wrongType(path(), expected: "a string", got: token)
        }
    }

    /// A boolean; `wrong_type` otherwise.
    mutating func bool(_ token: Int, _ path: @autoclosure () -> String) -> Bool? {
        switch document.kind(token) {
        case .true: return true
        case .false: return false
        default:
            wrongType(path(), expected: "true or false", got: token)
            return nil
        }
    }

    /// An object (its token); `wrong_type` otherwise.
    mutating func object(_ token: Int, _ path: @autoclosure () -> String) -> Int? {
        guard document.kind(token) == .object else {
            wrongType(path(), expected: "an object", got: token)
            return nil
        }
        return token
    }

    /// An array (its token); `wrong_type` otherwise.
    mutating func array(_ token: Int, _ path: @autoclosure () -> String) -> Int? {
        guard document.kind(token) == .array else {
            wrongType(path(), expected: "an array", got: token)
            return nil
        }
        return token
    }

    /// An integer (no fraction, no exponent) within `range`: its value. The valid case is inlined into
    /// each reader; the diagnostics are made out of line.
    @inline(__always)
    mutating func integer(_ token: Int, _ path: @autoclosure () -> String, in range: ClosedRange<Int64>) -> Int64? {
        if document.kind(token) == .number, case .value(let integer) = IntegerText(document.raw(token)),
            range.contains(integer)
        {
            return integer
        }
        reportNotAnInteger(token, path, in: range)
        return nil
    }

    /// The diagnostic of a value that is not an integer within `range`.
    @inline(never)
    private mutating func reportNotAnInteger(_ token: Int, _ path: () -> String, in range: ClosedRange<Int64>) {
        guard document.kind(token) == .number else {
            wrongType(path(), expected: "an integer", got: token)
            return
        }
        if IntegerText(document.raw(token)) == .notInteger {
            let message = "expected an integer (no fraction or exponent), got \(document.number(token).text)"
            error(.wrongType, path(), message)
        } else {
            error(.outOfRange, path(), Self.outOfRangeMessage(range, got: document.raw(token)))
        }
    }

    /// `must be an integer from LOWER to UPPER, got NUMBER` (the number as written), written into one new
    /// string: interpolating the bounds went through their generic descriptions and grew the string
    /// several times.
    private static func outOfRangeMessage(_ range: ClosedRange<Int64>, got number: UnsafeBufferPointer<UInt8>)
        -> String
    {
        let parts: (StaticString, StaticString, StaticString) = ("must be an integer from ", " to ", ", got ")
        let capacity =
            parts.0.utf8CodeUnitCount + parts.1.utf8CodeUnitCount + parts.2.utf8CodeUnitCount + 2 * 20 + number.count
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var position = write(parts.0, into: buffer, at: 0)
            position = write(range.lowerBound, into: buffer, at: position)
            position = write(parts.1, into: buffer, at: position)
            position = write(range.upperBound, into: buffer, at: position)
            position = write(parts.2, into: buffer, at: position)
            return buffer[position...].initialize(fromContentsOf: number)
        }
    }

    /// Writes `text` into `buffer` at `position`: the position after it. (Functions of their own, not
    /// closures over the position: a captured variable was checked for exclusive access at each use.)
    private static func write(_ text: StaticString, into buffer: UnsafeMutableBufferPointer<UInt8>, at position: Int)
        -> Int
    {
        buffer[position...].initialize(
            fromContentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes the decimal text of `value` (with `-` when negative) into `buffer` at `position`: the position
    /// after it.
    private static func write(_ value: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>, at position: Int)
        -> Int
    {
        var position = position
        if value < 0 {
            buffer[position] = UInt8(ascii: "-")
            position += 1
        }
        return DecimalText.withDigits(of: value) {
            buffer[position...].initialize(fromContentsOf: $0.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// A finite number at least `minimum` (exclusive when `exclusive`), at most `maximum` when given.
    mutating func number(
        _ token: Int, _ path: @autoclosure () -> String, minimum: Double = 0, exclusive: Bool = false,
        maximum: Double? = nil
    ) -> JSONNumber? {
        guard document.kind(token) == .number else {
            wrongType(path(), expected: "a number", got: token)
            return nil
        }
        let number = document.number(token)
        // The allowed range as the messages word it, made only for a message.
        func bounds() -> String {
            let bound = exclusive ? "greater than \(Self.show(minimum))" : "at least \(Self.show(minimum))"
            return bound + (maximum.map { " and at most \(Self.show($0))" } ?? "")
        }
        guard let double = number.doubleValue else {
            error(.outOfRange, path(), "must be a finite number \(bounds()), got \(number.text)")
            return nil
        }
        let aboveMinimum = exclusive ? double > minimum : double >= minimum
        guard aboveMinimum, maximum.map({ double <= $0 }) ?? true else {
            error(.outOfRange, path(), "must be \(bounds()), got \(number.text)")
            return nil
        }
        return number
    }

    /// One of `choices`; `invalid_value` otherwise.
    /// Matched on the decoded bytes by the choice's ``KeyTable`` (no `String` is made of the text). The
    /// valid case is inlined into each reader; the diagnostic is made out of line.
    @inline(__always)
    mutating func choice<Choice: JSONKey>(
        _ token: Int, _ path: @autoclosure () -> String, _ type: Choice.Type, choices: @autoclosure () -> [String]
    ) -> Choice? {
        guard let text = string(token, path()) else { return nil }
        guard let choice = document.withDecodedBytes(text, Choice.keyTable.match) else {
            reportNotAChoice(path, choices)
            return nil
        }
        return choice
    }

    /// The diagnostic of a string that is none of `choices`.
    @inline(never)
    private mutating func reportNotAChoice(_ path: () -> String, _ choices: () -> [String]) {
        error(.invalidValue, path(), "must be one of \(choices().map { "\"\($0)\"" }.joined(separator: ", "))")
    }

    /// The decoded name of a member, for a JSON Pointer (built only when a diagnostic needs it).
    func name(_ token: Int) -> String { document.string(token) }

    private static func show(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : String(value)
    }
}
