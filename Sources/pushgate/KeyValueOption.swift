import ArgumentParser
import PushModel
import PushTranslation

/// Parsing of `NAME=VALUE` options (`--topic`, `--record-header`, `-X`): split at the first `=`.
enum KeyValueOption {
    /// Splits at the first `=`; a missing `=` is a `ValidationError` naming the option.
    static func split(_ text: String, option: String) throws -> (String, String) {
        // Search the UTF-8 bytes: a Character search would miss "=" followed by a combining mark.
        guard let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) else {
            throw ValidationError("\(option) expects NAME=VALUE, got '\(text)'")
        }
        let name = String(decoding: text.utf8[..<equals], as: UTF8.self)
        let value = String(decoding: text.utf8[text.utf8.index(after: equals)...], as: UTF8.self)
        return (name, value)
    }

    /// Parses `--topic FORMAT=NAME` values into a topic map.
    static func topics(_ values: [String]) throws -> [OutputFormat: String] {
        var topics: [OutputFormat: String] = [:]
        for value in values {
            let (formatName, topic) = try split(value, option: "--topic")
            guard let format = OutputFormat(rawValue: formatName) else {
                let known = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("--topic: unknown format '\(formatName)'; use one of \(known)")
            }
            guard !topic.isEmpty else { throw ValidationError("--topic \(formatName)= needs a topic name") }
            topics[format] = topic
        }
        return topics
    }

    /// Parses `--android-formats` (SPEC 4); anything but a comma-separated list of Android format names
    /// is a `ValidationError` (exit status 64) naming the accepted values.
    static func androidFormats(_ text: String, option: String = "--android-formats") throws -> OutputFormatSet {
        guard let formats = TranslatorConfiguration.androidFormats(from: text) else {
            let accepted = TranslatorConfiguration.androidFormatNames.joined(separator: ", ")
            throw ValidationError("\(option): '\(text)' is not a comma-separated list of \(accepted)")
        }
        return formats
    }
}
