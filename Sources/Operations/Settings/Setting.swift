/// The whole definition of one setting: its names (``SettingKey``: flag, variable, file key), its
/// default, its parser and its documentation. ``Settings`` holds one for every setting; `pushgate run`,
/// `translate`, `replay` and `broker` and the settings table of docs/configuration.md are all made from them.
public struct Setting<Value: Sendable>: Sendable {
    /// How the text of a setting becomes its value.
    public enum Parser: Sendable {
        /// A single value; the closure gets the text and how its source names the setting (for messages).
        case scalar(@Sendable (_ text: String, _ name: String) throws(SettingError) -> Value)
        /// `NAME=VALUE` entries from every source, lowest precedence first (a later entry wins), each with
        /// how its source names the setting.
        case entries(@Sendable (_ entries: [SettingEntry]) throws(SettingError) -> Value)
    }

    /// The setting's names.
    public let key: SettingKey
    /// The value when no source gives one.
    public let defaultValue: Value
    /// The default as documentation says it, e.g. `` `pushgate` `` or `none: no HTTP server` (Markdown).
    public let defaultDescription: String
    /// What the setting does, one sentence without the default (help text and docs/configuration.md).
    public let summary: String
    /// The placeholder of the flag's value in help and docs, e.g. `FORMAT=NAME`; `nil` for the default.
    public let valueName: String?
    /// How the settings table writes the option (Markdown) when not `` `--flag` ``, e.g.
    /// `` `--lenient` / `--no-lenient` ``.
    public let option: String?
    /// What the settings table adds after the variable, e.g. `` (`a=b,c=d`) ``.
    public let environmentNote: String
    /// What the settings table adds after the file key, e.g. `` (mapping `FORMAT: NAME`) ``.
    public let fileNote: String
    /// The parser.
    public let parser: Parser

    /// Creates a definition.
    public init(
        _ key: SettingKey, default defaultValue: Value, defaultDescription: String, summary: String,
        valueName: String? = nil, option: String? = nil, environmentNote: String = "", fileNote: String = "",
        parser: Parser
    ) {
        self.key = key
        self.defaultValue = defaultValue
        self.defaultDescription = defaultDescription
        self.summary = summary
        self.valueName = valueName
        self.option = option
        self.environmentNote = environmentNote
        self.fileNote = fileNote
        self.parser = parser
    }

    /// The `--help` text of the option: the summary and the default (Markdown backticks removed).
    public var help: String {
        "\(summary) (default: \(defaultDescription.replacingOccurrences(of: "`", with: "")))."
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
}

/// What documentation needs of a ``Setting`` whatever its value type.
public protocol SettingDocumentation: Sendable {
    /// The setting's names.
    var key: SettingKey { get }
    /// See ``Setting/defaultDescription``.
    var defaultDescription: String { get }
    /// See ``Setting/summary``.
    var summary: String { get }
    /// See ``Setting/valueName``.
    var valueName: String? { get }
    /// See ``Setting/option``.
    var option: String? { get }
    /// See ``Setting/environmentNote``.
    var environmentNote: String { get }
    /// See ``Setting/fileNote``.
    var fileNote: String { get }
}

extension Setting: SettingDocumentation {}
