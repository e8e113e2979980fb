/// The documentation made from ``Settings``: the settings table of docs/configuration.md and `pushgate run --help`'s list
/// of variables, so that neither can drift from the definitions.
extension Settings {
    /// The table of `pushgate run` settings in docs/configuration.md (Markdown), one row per setting of ``all``;
    /// `SettingsDefinitionTests` fails when the page's table differs.
    public static var markdownTable: String {
        var lines = ["| option | environment | file key | default |", "|---|---|---|---|"]
        for setting in all.map(\.documentation) {
            let option = setting.option ?? "`\(setting.flag)`"
            let file = setting.fileKey.map { "`\($0)`" + setting.fileNote } ?? "—"
            lines.append(
                "| \(option) | `\(setting.environmentVariable)`\(setting.environmentNote) | \(file) | \(setting.defaultDescription) |"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// Every variable of `pushgate run`, with how list variables are written, for its help text.
    public static var environmentVariableList: String {
        all.map { $0.environmentVariable + $0.documentation.variableHelp }.joined(separator: ", ")
    }
}
