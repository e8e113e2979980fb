import ArgumentParser
import Operations
import PushModel
import PushTranslation

/// `NAME=VALUE` options of the commands that do not read ``Settings`` as a whole (`broker`, `bench`):
/// the splitting and the topic parsing are ``SettingSource/split(_:name:)`` and ``Settings/topics``'s,
/// with their errors as `ValidationError`s (exit status 64).
enum KeyValueOption {
    /// Splits at the first `=`; a missing `=` is a `ValidationError` naming the option.
    static func split(_ text: String, option: String) throws -> (String, String) {
        do {
            return try SettingSource.split(text, name: option)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Parses `--topic FORMAT=NAME` values into a topic map, as `pushgate run` does.
    static func topics(_ values: [String]) throws -> [OutputFormat: String] {
        do {
            return try SettingReader([SettingSource.flags([:], maps: [.topics: values])]).value(Settings.topics)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
