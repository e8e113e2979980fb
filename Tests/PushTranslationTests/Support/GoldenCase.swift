import Foundation
import PushModel
import PushTranslation
import Testing

/// A golden case: `Golden/NAME.input.json` (the payload bytes), an optional `NAME.args` (one
/// `pushgate translate` option per line, `--name=value`), and `NAME.expected.jsonl` (exactly what
/// `pushgate translate --record-key=user-1 --record-timestamp=1700000000000 ARGS NAME.input.json` prints).
struct GoldenCase: CustomTestStringConvertible, Sendable {
    let name: String
    let directory: URL

    var testDescription: String { name }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    /// Every case in the Golden folder, sorted by name.
    static func all() -> [GoldenCase] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".input.json") }.sorted()
            .map { GoldenCase(name: String($0.dropLast(".input.json".count)), directory: directory) }
    }

    var inputURL: URL { directory.appendingPathComponent("\(name).input.json") }
    var expectedURL: URL { directory.appendingPathComponent("\(name).expected.jsonl") }
    var argsURL: URL { directory.appendingPathComponent("\(name).args") }

    var arguments: [String] {
        guard let text = try? String(contentsOf: argsURL, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Runs the translator as `pushgate translate` would with the case's options.
    func translatedLines() throws -> [UInt8] {
        let input = Array(try Data(contentsOf: inputURL))
        var lenient = false
        var lines = false
        var maxBytes = TranslatorConfiguration.defaultMaxPayloadBytes
        var key: String? = "user-1"
        var headers: [RecordHeader] = []
        var timestamp: Int64 = 1_700_000_000_000
        var topic = TranslatorConfiguration.defaultInputTopic
        var partition: Int32 = 0
        var offset: Int64 = 0
        var topics: [OutputFormat: String] = [:]
        var deadLetterTopic = TranslatorConfiguration.defaultDeadLetterTopic
        var androidFormats = TranslatorConfiguration.defaultAndroidFormats
        for argument in arguments {
            let (name, value) = Self.split(argument)
            switch name {
            case "--lenient": lenient = true
            case "--lines": lines = true
            case "--max-payload-bytes": maxBytes = Int(value) ?? maxBytes
            case "--record-key": key = value
            case "--record-header":
                let (headerName, headerValue) = Self.split(value)
                headers.append(RecordHeader(name: headerName, text: headerValue))
            case "--record-timestamp": timestamp = Int64(value) ?? timestamp
            case "--record-topic": topic = value
            case "--record-partition": partition = Int32(value) ?? 0
            case "--record-offset": offset = Int64(value) ?? 0
            case "--topic":
                let (format, name) = Self.split(value)
                if let format = OutputFormat(rawValue: format) { topics[format] = name }
            case "--dead-letter-topic": deadLetterTopic = value
            case "--android-formats":
                guard let formats = TranslatorConfiguration.androidFormats(from: value) else {
                    throw GoldenError.unknownArgument(argument)
                }
                androidFormats = formats
            default: throw GoldenError.unknownArgument(argument)
            }
        }
        let translator = Translator(
            configuration: TranslatorConfiguration(
                lenient: lenient, maxPayloadBytes: maxBytes, topics: topics, deadLetterTopic: deadLetterTopic,
                androidFormats: androidFormats))
        var payloads = [input]
        if lines {
            payloads = input.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            if input.last == 0x0A { payloads.removeLast() }
        }
        var out: [UInt8] = []
        for (index, payload) in payloads.enumerated() {
            let record = InputRecord(
                topic: topic, partition: partition, offset: offset + Int64(index), key: key.map { Array($0.utf8) },
                value: payload, headers: headers, timestampMs: timestamp)
            for produced in translator.translate(record, readAtMs: timestamp) {
                out += produced.jsonLine()
                out.append(0x0A)
            }
        }
        return out
    }

    private static func split(_ argument: String) -> (String, String) {
        guard let equals = argument.utf8.firstIndex(of: UInt8(ascii: "=")) else { return (argument, "") }
        return (
            String(decoding: argument.utf8[..<equals], as: UTF8.self),
            String(decoding: argument.utf8[argument.utf8.index(after: equals)...], as: UTF8.self)
        )
    }

    enum GoldenError: Error { case unknownArgument(String) }
}
