import ArgumentParser
import PushModel

/// Parsing of `NAME=VALUE` options (`--topic`, `--record-header`, `-X`): split at the first `=`.
enum KeyValueOption {
    /// Splits at the first `=`; a missing `=` is a `ValidationError` naming the option.
    static func split(_ text: String, option: String) throws -> (String, String) {
        guard let equals = text.firstIndex(of: "=") else {
            throw ValidationError("\(option) expects NAME=VALUE, got '\(text)'")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
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
}
