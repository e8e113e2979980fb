import PushModel

/// Collects the errors and payload warnings of the validate stage and offers typed readers that
/// report `wrong_type` and `out_of_range` as SPEC sections 3 and 9 define them.
struct ValidationContext {
    /// Whether unknown fields are warnings instead of errors.
    let lenient: Bool
    /// Errors found so far, unsorted.
    var errors: [Diagnostic] = []
    /// Payload warnings found so far (`unknown_field` with `--lenient`), unsorted.
    var warnings: [Diagnostic] = []

    init(lenient: Bool) { self.lenient = lenient }

    mutating func error(_ code: DiagnosticCode, _ path: @autoclosure () -> String, _ message: String) {
        errors.append(Diagnostic(code, at: path(), message))
    }

    /// Reports a key that is not part of the object's contract.
    mutating func unknownField(_ path: @autoclosure () -> String, in objectName: String) {
        let diagnostic = Diagnostic(.unknownField, at: path(), "unknown field in \(objectName); remove it or check its spelling")
        if lenient { warnings.append(diagnostic) } else { errors.append(diagnostic) }
    }

    mutating func wrongType(_ path: @autoclosure () -> String, expected: String, got value: JSONValue) {
        error(.wrongType, path(), "expected \(expected), got \(value.typeName)")
    }

    // MARK: typed readers

    /// A non-empty string; `wrong_type` or `out_of_range` otherwise.
    mutating func string(_ value: JSONValue, _ path: @autoclosure () -> String) -> String? {
        guard case .string(let text) = value else {
            wrongType(path(), expected: "a string", got: value)
            return nil
        }
        guard !text.isEmpty else {
            error(.outOfRange, path(), "must not be empty")
            return nil
        }
        return text
    }

    /// A boolean; `wrong_type` otherwise.
    mutating func bool(_ value: JSONValue, _ path: @autoclosure () -> String) -> Bool? {
        guard case .bool(let flag) = value else {
            wrongType(path(), expected: "true or false", got: value)
            return nil
        }
        return flag
    }

    /// An object; `wrong_type` otherwise.
    mutating func object(_ value: JSONValue, _ path: @autoclosure () -> String) -> JSONObject? {
        guard case .object(let object) = value else {
            wrongType(path(), expected: "an object", got: value)
            return nil
        }
        return object
    }

    /// An array; `wrong_type` otherwise.
    mutating func array(_ value: JSONValue, _ path: @autoclosure () -> String) -> [JSONValue]? {
        guard case .array(let elements) = value else {
            wrongType(path(), expected: "an array", got: value)
            return nil
        }
        return elements
    }

    /// An integer (no fraction, no exponent) within `range`.
    mutating func integer(_ value: JSONValue, _ path: @autoclosure () -> String, in range: ClosedRange<Int64>) -> (JSONNumber, Int64)? {
        guard case .number(let number) = value, number.isInteger else {
            if case .number(let number) = value {
                error(.wrongType, path(), "expected an integer (no fraction or exponent), got \(number.text)")
            } else {
                wrongType(path(), expected: "an integer", got: value)
            }
            return nil
        }
        guard let integer = number.int64Value, range.contains(integer) else {
            error(.outOfRange, path(), "must be an integer from \(range.lowerBound) to \(range.upperBound), got \(number.text)")
            return nil
        }
        return (number, integer)
    }

    /// A finite number at least `minimum` (exclusive when `exclusive`), at most `maximum` when given.
    mutating func number(
        _ value: JSONValue, _ path: @autoclosure () -> String, minimum: Double = 0, exclusive: Bool = false, maximum: Double? = nil
    ) -> JSONNumber? {
        guard case .number(let number) = value else {
            wrongType(path(), expected: "a number", got: value)
            return nil
        }
        let bound = exclusive ? "greater than \(Self.show(minimum))" : "at least \(Self.show(minimum))"
        let upper = maximum.map { " and at most \(Self.show($0))" } ?? ""
        guard let double = number.doubleValue else {
            error(.outOfRange, path(), "must be a finite number \(bound)\(upper), got \(number.text)")
            return nil
        }
        let aboveMinimum = exclusive ? double > minimum : double >= minimum
        guard aboveMinimum, maximum.map({ double <= $0 }) ?? true else {
            error(.outOfRange, path(), "must be \(bound)\(upper), got \(number.text)")
            return nil
        }
        return number
    }

    /// One of `choices`; `invalid_value` otherwise.
    mutating func choice<Choice: RawRepresentable>(
        _ value: JSONValue, _ path: @autoclosure () -> String, _ type: Choice.Type, choices: [String]
    ) -> Choice? where Choice.RawValue == String {
        guard let text = string(value, path()) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            error(.invalidValue, path(), "must be one of \(choices.map { "\"\($0)\"" }.joined(separator: ", "))")
            return nil
        }
        return choice
    }

    private static func show(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : String(value)
    }
}
