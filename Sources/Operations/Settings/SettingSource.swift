/// The settings one source gives (command line, environment or configuration file), as text, before
/// they are parsed: scalars by key, and map entries (`topics`, `kafka-properties`) as `(name, value)`.
public struct SettingSource: Sendable {
    /// Which source this is, for messages.
    public enum Kind: Sendable { case flags, environment, file(String) }

    /// Which source this is.
    public let kind: Kind
    /// Scalar settings as given.
    public var scalars: [SettingKey: String]
    /// Map settings, entries in the order given (a later entry wins for the same name).
    public var maps: [SettingKey: [(String, String)]]

    /// Creates a source.
    public init(kind: Kind, scalars: [SettingKey: String] = [:], maps: [SettingKey: [(String, String)]] = [:]) {
        self.kind = kind
        self.scalars = scalars
        self.maps = maps
    }

    /// How `key` is named in this source: `--max-in-flight`, `PUSHGATE_MAX_IN_FLIGHT` or
    /// `max-in-flight in FILE`.
    public func name(of key: SettingKey) -> String {
        switch kind {
        case .flags: key.flag
        case .environment: key.environmentVariable
        case .file(let path): "\(key.fileKey ?? key.rawValue) in \(path)"
        }
    }

    /// The `PUSHGATE_*` variables of `keys` (by default every setting) in `environment`, empty ones
    /// ignored; map entries split at newlines and ``SettingKey``'s separators (`PUSHGATE_TOPICS` at `,` and
    /// `;`, `PUSHGATE_X` at `;`), each entry at its first `=`.
    public static func environment(
        _ environment: EnvironmentSettings, keys: [SettingKey] = SettingKey.allCases
    ) throws(SettingError) -> SettingSource {
        var source = SettingSource(kind: .environment)
        for key in keys {
            if key.isMap {
                var entries: [(String, String)] = []
                for entry in environment.list(key.environmentVariable, separators: key.environmentSeparators) {
                    entries.append(try split(entry, name: key.environmentVariable))
                }
                if !entries.isEmpty { source.maps[key] = entries }
            } else if let value = environment.string(key.environmentVariable) {
                source.scalars[key] = value
            }
        }
        return source
    }

    /// The command line's settings: `scalars` as given (`nil` for an option not given), and map options'
    /// `NAME=VALUE` values split at their first `=`.
    public static func flags(
        _ scalars: [SettingKey: String?], maps: [SettingKey: [String]] = [:]
    ) throws(SettingError) -> SettingSource {
        var source = SettingSource(kind: .flags)
        for case let (key, value?) in scalars { source.scalars[key] = value }
        for (key, values) in maps {
            var entries: [(String, String)] = []
            for value in values { entries.append(try split(value, name: key.flag)) }
            source.maps[key] = entries
        }
        return source
    }

    /// Splits `NAME=VALUE` at the first `=`. - Throws: ``SettingError`` naming `name` when there is none.
    public static func split(_ text: String, name: String) throws(SettingError) -> (String, String) {
        guard let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) else {
            throw SettingError("\(name) expects NAME=VALUE entries, got '\(text)'")
        }
        return (String(decoding: text.utf8[..<equals], as: UTF8.self),
                String(decoding: text.utf8[text.utf8.index(after: equals)...], as: UTF8.self))
    }
}
