import Foundation

/// Reads pushgate's `PUSHGATE_*` environment variables, the fallback of every command-line option
/// (a flag given on the command line wins).
///
/// Conventions: an empty variable counts as unset; booleans are `true`/`false`/`1`/`0`/`yes`/`no`;
/// lists (`PUSHGATE_X`, `PUSHGATE_TOPICS`) hold one entry per line or `;`-separated entries
/// (`PUSHGATE_TOPICS` also accepts `,`, which topic names cannot contain).
public struct EnvironmentSettings: Sendable {
    /// The variables read.
    public let variables: [String: String]

    /// Reads `variables`, by default the process environment.
    public init(_ variables: [String: String] = ProcessInfo.processInfo.environment) {
        self.variables = variables
    }

    /// The variable's text, `nil` when unset or empty.
    public func string(_ name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }

    /// The variable as a boolean. - Throws: ``SettingError`` for another text.
    public func bool(_ name: String) throws(SettingError) -> Bool? {
        guard let text = string(name)?.lowercased() else { return nil }
        switch text {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: throw SettingError("\(name) must be true or false, not '\(text)'")
        }
    }

    /// The variable as an integer. - Throws: ``SettingError`` for another text.
    public func int(_ name: String) throws(SettingError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw SettingError("\(name) must be an integer, not '\(text)'")
        }
        return value
    }

    /// The variable as a list of entries split at newlines and `separators`; empty entries are dropped.
    public func list(_ name: String, separators: Set<Character> = [";"]) -> [String] {
        guard let text = string(name) else { return [] }
        return text.split(whereSeparator: { $0.isNewline || separators.contains($0) })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }
}

/// A setting from the environment or the command line that cannot be used, with the reason.
public struct SettingError: Error, CustomStringConvertible {
    /// What is wrong, naming the variable or option.
    public let description: String

    /// Creates the error.
    public init(_ description: String) { self.description = description }
}
