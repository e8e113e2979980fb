import Foundation

/// Reads pushgate's `PUSHGATE_*` environment variables as text, the fallback of every command-line option
/// (a flag given on the command line wins); values are parsed by each setting's ``SettingParser``.
///
/// Conventions: an empty variable counts as unset; lists (`PUSHGATE_X`, `PUSHGATE_TOPICS`) hold one entry
/// per line or `;`-separated entries (`PUSHGATE_TOPICS` also accepts `,`, which topic names cannot contain).
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

    /// The variable as a list of entries split at newlines and `separators`; empty entries are dropped.
    public func list(_ name: String, separators: Set<Character> = [";"]) -> [String] {
        guard let text = string(name) else { return [] }
        return text.split(whereSeparator: { $0.isNewline || separators.contains($0) })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }
}
