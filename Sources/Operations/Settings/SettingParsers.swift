import Foundation

/// The parsers ``Settings`` is made of. Each error names the setting as its source does
/// (`--max-in-flight`, `PUSHGATE_MAX_IN_FLIGHT`, `max-in-flight in FILE`).
enum SettingParsers {
    /// Any non-empty text.
    static func text(_ value: String, _ name: String) throws(SettingError) -> String {
        guard !value.isEmpty else { throw SettingError("\(name) must not be empty") }
        return value
    }

    /// An integer in `range`.
    static func integer(_ range: ClosedRange<Int>) -> @Sendable (String, String) throws(SettingError) -> Int {
        { value, name throws(SettingError) in
            guard let number = Int(value.trimmingCharacters(in: .whitespaces)) else {
                throw SettingError("\(name) must be an integer, not '\(value)'")
            }
            guard range.contains(number) else {
                let upper = range.upperBound == Int.max ? "" : " and at most \(range.upperBound)"
                throw SettingError("\(name) must be at least \(range.lowerBound)\(upper), not \(number)")
            }
            return number
        }
    }

    /// `true`/`1`/`yes`/`on` or `false`/`0`/`no`/`off`, any case.
    static func boolean(_ value: String, _ name: String) throws(SettingError) -> Bool {
        switch value.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: throw SettingError("\(name) must be true or false, not '\(value)'")
        }
    }

    /// One of the raw values of `Choice`, any case.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _: Choice.Type
    ) -> @Sendable (String, String) throws(SettingError) -> Choice where Choice.RawValue == String {
        { value, name throws(SettingError) in
            let lowered = value.trimmingCharacters(in: .whitespaces).lowercased()
            guard let choice = Choice(rawValue: lowered) else {
                let allowed = Choice.allCases.map(\.rawValue).joined(separator: ", ")
                throw SettingError("\(name) must be one of \(allowed), not '\(value)'")
            }
            return choice
        }
    }

    /// A comma-separated list of raw values of `Choice`, at least one, duplicates dropped, in the order given.
    static func choices<Choice: RawRepresentable & CaseIterable & Equatable & Sendable>(
        _: Choice.Type
    ) -> @Sendable (String, String) throws(SettingError) -> [Choice] where Choice.RawValue == String {
        { value, name throws(SettingError) in
            let allowed = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            var result: [Choice] = []
            for part in value.split(separator: ",") {
                let text = part.trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else { continue }
                guard let choice = Choice(rawValue: text.lowercased()) else {
                    throw SettingError("\(name): unknown name '\(text)'; accepted: \(allowed)")
                }
                if !result.contains(choice) { result.append(choice) }
            }
            guard !result.isEmpty else { throw SettingError("\(name) must name at least one of \(allowed)") }
            return result
        }
    }

    /// A value that has no default: `nil` when no source gives one.
    static func optional<Value>(
        _ parse: @escaping @Sendable (String, String) throws(SettingError) -> Value
    ) -> @Sendable (String, String) throws(SettingError) -> Value? {
        { value, name throws(SettingError) in try parse(value, name) }
    }
}
