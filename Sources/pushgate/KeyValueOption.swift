import ArgumentParser
import Operations
import PushModel
import PushTranslation

/// `NAME=VALUE` options of the commands that do not read ``Settings`` as a whole (`broker`, `bench`):
/// the splitting and the topic parsing are ``SettingEntry/init(splitting:source:)`` and ``Settings/topics``'s,
/// with their errors as `ValidationError`s (exit status 64).
enum KeyValueOption {
    /// Splits at the first `=`; a missing `=` is a `ValidationError` naming the option.
    static func split(_ text: String, option: String) throws -> (String, String) {
        let entry = try validating { () throws(SettingError) in try SettingEntry(splitting: text, source: option) }
        return (entry.name, entry.value)
    }

    /// Parses `--topic FORMAT=NAME` values into a topic map, as `pushgate run` does.
    static func topics(_ values: [String]) throws -> [OutputFormat: String] {
        try validating { () throws(SettingError) in try SettingReader().value(Settings.topics, flagEntries: values) }
    }
}
