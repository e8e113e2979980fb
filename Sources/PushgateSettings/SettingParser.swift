import Foundation
import PushModel
import PushTranslation

/// How the text of a setting becomes its value (from a variable, the configuration file, or a flag given
/// as text), what every value must meet (a flag already typed by swift-argument-parser included), and how
/// documentation writes a value. Each error names the setting as its source does (`--max-in-flight`,
/// `PUSHGATE_MAX_IN_FLIGHT`, `max-in-flight in FILE`), the second argument of `parse` and `check`.
public struct SettingParser<Value: Sendable>: Sendable {
    /// Text to a value, before ``check``.
    public let parse: @Sendable (_ text: String, _ name: String) throws(SettingError) -> Value
    /// What every value must meet, e.g. a range.
    public let check: @Sendable (_ value: Value, _ name: String) throws(SettingError) -> Void
    /// A value as documentation writes it (Markdown); `nil` when the setting must describe its default itself.
    public let describe: @Sendable (Value) -> String?

    /// Creates a parser.
    public init(
        parse: @escaping @Sendable (_ text: String, _ name: String) throws(SettingError) -> Value,
        check: @escaping @Sendable (_ value: Value, _ name: String) throws(SettingError) -> Void = { _, _ in },
        describe: @escaping @Sendable (Value) -> String? = { _ in nil }
    ) {
        self.parse = parse
        self.check = check
        self.describe = describe
    }

    /// `text` parsed, then checked.
    public func read(_ text: String, name: String) throws(SettingError) -> Value {
        let value = try parse(text, name)
        try check(value, name)
        return value
    }
}

extension SettingParser where Value == String {
    /// Any non-empty text.
    public static var text: Self {
        Self(
            parse: { text, _ in text },
            check: { text, name throws(SettingError) in
                guard !text.isEmpty else { throw SettingError("\(name) must not be empty") }
            },
            describe: { "`\($0)`" })
    }
}

extension SettingParser where Value == Int {
    /// An integer in `range`; spaces around the text are ignored.
    public static func integer(_ range: ClosedRange<Int>) -> Self {
        Self(
            parse: { text, name throws(SettingError) in
                guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else {
                    throw SettingError("\(name) must be an integer, not '\(text)'")
                }
                return number
            },
            check: { number, name throws(SettingError) in
                guard range.contains(number) else {
                    let upper = range.upperBound == Int.max ? "" : " and at most \(range.upperBound)"
                    throw SettingError("\(name) must be at least \(range.lowerBound)\(upper), not \(number)")
                }
            },
            describe: { "\($0)" })
    }
}

extension SettingParser where Value == Bool {
    /// `true`/`1`/`yes`/`on` or `false`/`0`/`no`/`off`, any case; written `on` and `off`.
    public static var boolean: Self {
        Self(
            parse: { text, name throws(SettingError) in
                switch text.trimmingCharacters(in: .whitespaces).lowercased() {
                case "true", "1", "yes", "on": return true
                case "false", "0", "no", "off": return false
                default: throw SettingError("\(name) must be true or false, not '\(text)'")
                }
            },
            describe: { $0 ? "on" : "off" })
    }
}

extension SettingParser where Value: SettingChoice {
    /// One of the names of `Value`, any case (``SettingChoice/init(settingText:)``).
    public static var choice: Self {
        Self(
            parse: { text, name throws(SettingError) in
                guard let choice = Value(settingText: text) else {
                    throw SettingError("\(name) must be one of \(Value.names), not '\(text)'")
                }
                return choice
            },
            describe: { "`\($0.rawValue)`" })
    }
}

extension SettingParser where Value == OutputFormatSet {
    /// `--android-formats` (SPEC 4): a comma-separated list of `android-expandable` and `fcm`, exact
    /// lower-case names, no spaces, a repeat allowed; anything else names the accepted values.
    public static var androidFormats: Self {
        Self(
            parse: { text, name throws(SettingError) in
                guard let formats = TranslatorConfiguration.androidFormats(from: text) else {
                    let accepted = TranslatorConfiguration.androidFormatNames.joined(separator: ", ")
                    throw SettingError(
                        "\(name): '\(text)' is not a comma-separated list of \(accepted) (exact lower-case names, no spaces)"
                    )
                }
                return formats
            },
            describe: { "`" + $0.map(\.rawValue).joined(separator: ",") + "`" })
    }
}

extension SettingParser {
    /// A setting without a default: `wrapped`'s rules for a value given, `nil` when none is (which
    /// the setting describes itself).
    public static func optional<Wrapped>(_ wrapped: SettingParser<Wrapped>) -> Self where Value == Wrapped? {
        Self(
            parse: { text, name throws(SettingError) in try wrapped.parse(text, name) },
            check: { value, name throws(SettingError) in
                if let value { try wrapped.check(value, name) }
            })
    }
}

/// A setting whose value is one of a few names, read in any case with spaces around ignored
/// (`--log-level WARNING`, `PUSHGATE_LOG_FORMAT=" json"`).
public protocol SettingChoice: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

extension SettingChoice {
    /// The value named by `text`, in any case; `nil` for another name.
    public init?(settingText text: String) {
        self.init(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// The names, comma-separated, for help and messages: `text, json`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// A setting from the environment, the command line or the configuration file that cannot be used, with
/// the reason.
public struct SettingError: Error, CustomStringConvertible {
    /// What is wrong, naming the variable or option.
    public let description: String

    /// Creates the error.
    public init(_ description: String) { self.description = description }
}
