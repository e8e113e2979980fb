import Foundation
import PushModel
import PushTranslation

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

    /// `--android-formats` (SPEC 4): a comma-separated list of `android-expandable` and `fcm`, exact
    /// lower-case names, no spaces, a repeat allowed; anything else names the accepted values.
    static let androidFormats: @Sendable (String, String) throws(SettingError) -> OutputFormatSet = { value, name throws(SettingError) in
        guard let formats = TranslatorConfiguration.androidFormats(from: value) else {
            let accepted = TranslatorConfiguration.androidFormatNames.joined(separator: ", ")
            throw SettingError("\(name): '\(value)' is not a comma-separated list of \(accepted) (exact lower-case names, no spaces)")
        }
        return formats
    }

    /// A value that has no default: `nil` when no source gives one.
    static func optional<Value>(
        _ parse: @escaping @Sendable (String, String) throws(SettingError) -> Value
    ) -> @Sendable (String, String) throws(SettingError) -> Value? {
        { value, name throws(SettingError) in try parse(value, name) }
    }
}
