/// The documentation made from ``Settings``: the settings table of docs/configuration.md and `pushgate run --help`'s list
/// of variables, so that neither can drift from the definitions.
extension Settings {
    /// The table of `pushgate run` settings in docs/configuration.md (Markdown), one row per setting of ``all``;
    /// `SettingsDefinitionTests` fails when the page's table differs.
    public static var markdownTable: String {
        var lines = ["| option | environment | file key | default |", "|---|---|---|---|"]
        for setting in all {
            let key = setting.key
            let option = setting.option ?? "`\(key.flag)`"
            let file = key.fileKey.map { "`\($0)`" + setting.fileNote } ?? "—"
            lines.append("| \(option) | `\(key.environmentVariable)`\(setting.environmentNote) | \(file) | \(setting.defaultDescription) |")
        }
        return lines.joined(separator: "\n")
    }

    /// Every variable of `pushgate run`, with how list variables are written, for its help text.
    public static var environmentVariableList: String {
        all.map { setting in
            switch setting.key {
            case .topics: "\(setting.key.environmentVariable) (FORMAT=NAME entries separated by ',', ';' or newlines)"
            case .kafkaProperties:
                "\(setting.key.environmentVariable) (key=value entries separated by ';' or newlines; a -X flag wins for the same key)"
            case .lenient: "\(setting.key.environmentVariable) (true/false)"
            default: setting.key.environmentVariable
            }
        }.joined(separator: ", ")
    }
}
