import ArgumentParser
import PushModel
import PushTranslation
import PushgateSettings

/// `NAME=VALUE` options of the commands that do not read ``Settings`` as a whole (`broker`): the topic
/// parsing is ``Settings/topics``'s, with its errors as `ValidationError`s (exit status 64).
enum KeyValueOption {
    /// Parses `--topic FORMAT=NAME` values into a topic map, as `pushgate run` does.
    static func topics(_ values: [String]) throws -> [OutputFormat: String] {
        try validating { () throws(SettingError) in try SettingReader().value(Settings.topics, flagEntries: values) }
    }
}
