/// Reads settings from sources by precedence (the first source that gives a setting wins; map entries
/// are merged, a higher source's entry winning) and parses them with their ``Setting``.
public struct SettingReader: Sendable {
    /// The sources, highest precedence first: flags, environment, file.
    public let sources: [SettingSource]

    /// Creates a reader of `sources`, highest precedence first.
    public init(_ sources: [SettingSource]) {
        self.sources = sources
    }

    /// The setting's value: parsed from the highest source that gives it, else its default.
    /// - Throws: ``SettingError`` naming the setting as its source does, for a value that cannot be used.
    public func value<Value>(_ setting: Setting<Value>) throws(SettingError) -> Value {
        switch setting.parser {
        case .scalar(let parse):
            for source in sources {
                if let text = source.scalars[setting.key] { return try parse(text, source.name(of: setting.key)) }
            }
            return setting.defaultValue
        case .entries(let parse):
            let entries = sources.reversed().flatMap { source in
                (source.maps[setting.key] ?? []).map {
                    SettingEntry(name: $0.0, value: $0.1, source: source.name(of: setting.key))
                }
            }
            return entries.isEmpty ? setting.defaultValue : try parse(entries)
        }
    }
}
