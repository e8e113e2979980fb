/// Reads settings by precedence: a flag given on the command line, then its `PUSHGATE_*` variable, then
/// the configuration file, then the default. Flags come typed (parsed by swift-argument-parser) and are
/// only checked; variables and file values are text, read by the setting's ``SettingParser``. Map
/// entries of every source are merged, a higher source's entry winning.
public struct SettingReader: Sendable {
    /// The variables; none by default.
    public let environment: EnvironmentSettings
    /// The configuration file, if one is read.
    public let file: ConfigFile?

    /// Creates a reader of `environment` (by default none: flags and defaults only) and `file`.
    public init(environment: EnvironmentSettings = EnvironmentSettings([:]), file: ConfigFile? = nil) {
        self.environment = environment
        self.file = file
    }

    /// The setting's value: `flag` when given, else from the first source that gives it, else its default.
    /// - Throws: ``SettingError`` naming the setting as its source does, for a value that cannot be used.
    public func value<Value>(_ setting: Setting<Value>, flag: Value? = nil) throws(SettingError) -> Value {
        try given(setting, flag: flag) ?? setting.defaultValue
    }

    /// The value of a setting without a default: `flag` when given, else from the first source that gives
    /// it, else `nil`.
    /// - Throws: ``SettingError`` naming the setting as its source does, for a value that cannot be used.
    public func value<Wrapped>(_ setting: Setting<Wrapped?>, flag: Wrapped? = nil) throws(SettingError) -> Wrapped? {
        try given(setting, flag: flag.map { .some($0) }) ?? setting.defaultValue
    }

    /// The setting's value when its flag is text the setting reads itself (`--android-formats`).
    /// - Throws: ``SettingError`` naming the setting as its source does, for a value that cannot be used.
    public func value<Value>(_ setting: Setting<Value>, flagText: String?) throws(SettingError) -> Value {
        if let flagText { return try setting.parser.read(flagText, name: setting.flag) }
        return try value(setting)
    }

    /// The map setting's value: the entries of the file, then the variable, then `flagEntries` (each
    /// `NAME=VALUE`), a later one winning for the same name; the default when there are none.
    /// - Throws: ``SettingError`` naming the setting as its source does, for an entry that cannot be used.
    public func value<Value>(_ setting: MapSetting<Value>, flagEntries: [String] = []) throws(SettingError) -> Value {
        var entries: [SettingEntry] = []
        if let file, let key = setting.fileKey {
            let source = file.name(of: key)
            entries += (file.maps[key] ?? []).map { SettingEntry(name: $0.0, value: $0.1, source: source) }
        }
        let variable = setting.environmentVariable
        for text in environment.list(variable, separators: setting.environmentSeparators) {
            entries.append(try SettingEntry(splitting: text, source: variable))
        }
        for text in flagEntries { entries.append(try SettingEntry(splitting: text, source: setting.flag)) }
        return entries.isEmpty ? setting.defaultValue : try setting.parse(entries)
    }

    /// The value of the highest source that gives one, checked; `nil` when none does.
    private func given<Value>(_ setting: Setting<Value>, flag: Value?) throws(SettingError) -> Value? {
        if let flag {
            try setting.parser.check(flag, setting.flag)
            return flag
        }
        if let text = environment.string(setting.environmentVariable) {
            return try setting.parser.read(text, name: setting.environmentVariable)
        }
        if let file, let key = setting.fileKey, let text = file.scalars[key] {
            return try setting.parser.read(text, name: file.name(of: key))
        }
        return nil
    }
}
