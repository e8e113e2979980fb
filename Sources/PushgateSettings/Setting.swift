/// A setting of one value (a number, a name, a choice, a list in one text): its names, its default, how
/// its text is read and checked, and what documentation says of it. ``Settings`` holds one for every
/// setting; the commands' options, their help, the environment, the configuration file and the settings
/// table of docs/configuration.md are all made from them.
public struct Setting<Value: Sendable>: SettingDefinition {
    /// Names and documentation.
    public let documentation: SettingDocumentation
    /// The value when no source gives one.
    public let defaultValue: Value
    /// How text becomes a value, and what every value must meet.
    public let parser: SettingParser<Value>

    /// Creates a definition.
    /// - Parameters:
    ///   - name: the configuration file key, e.g. `max-in-flight`; the flag is `--NAME` and the variable
    ///     `PUSHGATE_NAME` (upper case, `_` for `-`).
    ///   - inFile: whether the configuration file may set it (not `config`, which names the file).
    ///   - defaultDescription: the default as documentation writes it (Markdown); when `nil`, as the
    ///     parser writes the default value (`8`, `` `pushgate` ``, `off`).
    ///   - summary: what the setting does, one sentence without the default (help and docs).
    ///   - valueName: the placeholder of the flag's value in help, e.g. `FILE`; `nil` for the default.
    ///   - option: how the settings table writes the option when not `` `--flag` `` (Markdown).
    ///   - environmentNote: what the settings table adds after the variable, e.g. `` (`true`/`false`) ``.
    ///   - variableHelp: what `pushgate run --help` adds after the variable in its list, e.g. ` (true/false)`.
    public init(
        _ name: String, inFile: Bool = true, default defaultValue: Value, described defaultDescription: String? = nil,
        summary: String, valueName: String? = nil, option: String? = nil, environmentNote: String = "",
        variableHelp: String = "", parser: SettingParser<Value>
    ) {
        documentation = SettingDocumentation(
            name: name, flag: "--" + name, environmentVariable: SettingDocumentation.variable(of: name),
            fileKey: inFile ? name : nil, isMap: false,
            defaultDescription: defaultDescription ?? parser.describe(defaultValue) ?? "", summary: summary,
            valueName: valueName, option: option, environmentNote: environmentNote, fileNote: "",
            variableHelp: variableHelp)
        self.defaultValue = defaultValue
        self.parser = parser
    }
}

/// A setting made of `NAME=VALUE` entries (output topics, librdkafka properties): repeatable on the command
/// line, a list in its variable, a mapping in the file; entries of every source are merged, a higher
/// source winning for the same name.
public struct MapSetting<Value: Sendable>: SettingDefinition {
    /// Names and documentation.
    public let documentation: SettingDocumentation
    /// The value when no source gives an entry.
    public let defaultValue: Value
    /// What separates the entries of the variable, besides newlines.
    public let environmentSeparators: Set<Character>
    /// The entries of every source, lowest precedence first (a later entry wins), to a value.
    public let parse: @Sendable (_ entries: [SettingEntry]) throws(SettingError) -> Value

    /// Creates a definition; `flag` and `environmentVariable` are given in full (`--topic`, `-X`,
    /// `PUSHGATE_X`), the other parameters are as for ``Setting``.
    public init(
        _ name: String, flag: String, environmentVariable: String? = nil, default defaultValue: Value,
        described defaultDescription: String, summary: String, valueName: String, option: String,
        environmentNote: String, fileNote: String, variableHelp: String, environmentSeparators: Set<Character>,
        parse: @escaping @Sendable (_ entries: [SettingEntry]) throws(SettingError) -> Value
    ) {
        documentation = SettingDocumentation(
            name: name, flag: flag, environmentVariable: environmentVariable ?? SettingDocumentation.variable(of: name),
            fileKey: name, isMap: true, defaultDescription: defaultDescription, summary: summary, valueName: valueName,
            option: option, environmentNote: environmentNote, fileNote: fileNote, variableHelp: variableHelp)
        self.defaultValue = defaultValue
        self.environmentSeparators = environmentSeparators
        self.parse = parse
    }
}

/// A setting of either kind, as documentation and the configuration file see it.
public protocol SettingDefinition: Sendable {
    /// Names and documentation.
    var documentation: SettingDocumentation { get }
}

extension SettingDefinition {
    /// The command-line flag, e.g. `--max-in-flight`, `--topic`, `-X`.
    public var flag: String { documentation.flag }
    /// The environment variable, e.g. `PUSHGATE_MAX_IN_FLIGHT`, `PUSHGATE_X`.
    public var environmentVariable: String { documentation.environmentVariable }
    /// The configuration file key, e.g. `max-in-flight`; `nil` when the file cannot set it.
    public var fileKey: String? { documentation.fileKey }
    /// The `--help` text of the option: the summary and the default (Markdown backticks removed).
    public var help: String { documentation.help }
}

/// The names of a setting and what documentation says of it.
public struct SettingDocumentation: Sendable {
    /// The setting's name, e.g. `max-in-flight`.
    public let name: String
    /// The command-line flag, e.g. `--max-in-flight`.
    public let flag: String
    /// The environment variable, e.g. `PUSHGATE_MAX_IN_FLIGHT`.
    public let environmentVariable: String
    /// The configuration file key; `nil` when the file cannot set it.
    public let fileKey: String?
    /// Whether the setting is made of `NAME=VALUE` entries (a mapping in the file).
    public let isMap: Bool
    /// The default as documentation says it, e.g. `` `pushgate` `` or `none: no HTTP server` (Markdown).
    public let defaultDescription: String
    /// What the setting does, one sentence without the default.
    public let summary: String
    /// The placeholder of the flag's value in help, e.g. `FORMAT=NAME`; `nil` for swift-argument-parser's.
    public let valueName: String?
    /// How the settings table writes the option when not `` `--flag` `` (Markdown).
    public let option: String?
    /// What the settings table adds after the variable.
    public let environmentNote: String
    /// What the settings table adds after the file key.
    public let fileNote: String
    /// What `pushgate run --help` adds after the variable in its list of variables.
    public let variableHelp: String

    /// The `--help` text of the option: the summary and the default (Markdown backticks removed).
    public var help: String {
        "\(summary) (default: \(defaultDescription.replacingOccurrences(of: "`", with: "")))."
    }

    /// `PUSHGATE_` and the name in upper case with `_` for `-`.
    static func variable(of name: String) -> String {
        "PUSHGATE_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }
}

/// One `NAME=VALUE` entry of a map setting, with how its source names the setting.
public struct SettingEntry: Sendable {
    /// The part before the first `=`.
    public let name: String
    /// The part after the first `=`.
    public let value: String
    /// How the source names the setting: `--topic`, `PUSHGATE_TOPICS`, `topics in FILE`.
    public let source: String

    /// Creates an entry.
    public init(name: String, value: String, source: String) {
        self.name = name
        self.value = value
        self.source = source
    }

    /// `text` split at its first `=`, named by `source` (`--topic`, `PUSHGATE_X`).
    /// - Throws: ``SettingError`` naming `source` when there is no `=`.
    public init(splitting text: String, source: String) throws(SettingError) {
        guard let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) else {
            throw SettingError("\(source) expects NAME=VALUE entries, got '\(text)'")
        }
        self.init(
            name: String(decoding: text.utf8[..<equals], as: UTF8.self),
            value: String(decoding: text.utf8[text.utf8.index(after: equals)...], as: UTF8.self), source: source)
    }
}
