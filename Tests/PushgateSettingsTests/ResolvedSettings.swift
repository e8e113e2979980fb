import PushgateSettings

/// The settings of the command line `flags` (as `pushgate run` parses it), `environment` and `file`.
func resolve(flags: [String] = [], environment: [String: String] = [:], file: String? = nil) throws -> RunSettings {
    let reader = SettingReader(
        environment: EnvironmentSettings(environment),
        file: try file.map { try ConfigFile.parse($0, path: "pushgate.yaml") })
    return try RunSettings.resolve(try RunOptions.parse(flags), reader)
}
