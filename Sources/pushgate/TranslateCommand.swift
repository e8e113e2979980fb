import ArgumentParser
import Foundation
import PushModel
import PushTranslation
import PushgateSettings

/// `pushgate translate`: translation without Kafka, one JSON line per record it would produce.
struct TranslateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Translate payloads without Kafka; print one JSON line per output record or dead letter.",
        discussion: """
            Reads one payload from FILE or standard input (--lines: one payload per line) and writes
            {"topic":..,"format":..,"key":..,"headers":[[NAME,VALUE],..],"value":..} per record.
            Exit status 0, or 1 when any dead letter was written.
            """
    )

    @Argument(help: "The payload file; standard input when absent.")
    var file: String?

    @Flag(help: "One payload per line (split at \\n); line N has offset --record-offset + N.")
    var lines = false

    @Flag(name: Settings.lenient.optionName, help: Settings.lenient.argumentHelp)
    var lenient = Settings.lenient.defaultValue

    @Option(Settings.maxPayloadBytes)
    var maxPayloadBytes: Int?

    @Option(Settings.topics)
    var topics: [String] = []

    @Option(text: Settings.androidFormats)
    var androidFormats: String?

    @Option(Settings.deadLetterTopic)
    var deadLetterTopic: String?

    @Option(help: "Topic of the described input record.")
    var recordTopic = Settings.inputTopic.defaultValue

    @Option(help: "Partition of the described input record.")
    var recordPartition: Int32 = 0

    @Option(help: "Offset of the described input record (with --lines, of line 0).")
    var recordOffset: Int64 = 0

    @Option(help: "Key of the described input record (default: none).")
    var recordKey: String?

    @Option(help: ArgumentHelp("A header of the described input record (repeatable).", valueName: "NAME=VALUE"))
    var recordHeader: [String] = []

    @Option(help: ArgumentHelp("Timestamp of the described input record in ms (default: now).", valueName: "MS"))
    var recordTimestamp: Int64?

    func validate() throws {
        guard recordOffset >= 0 else { throw ValidationError("--record-offset must be 0 or more") }
        _ = try configuration()
        _ = try headers()
    }

    func run() throws {
        let translator = Translator(configuration: try configuration())
        let input = try readInput()
        let headers = try headers()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let payloads = lines ? Self.splitLines(input) : [input]
        // Line N has offset --record-offset + N: the last one must still be a Kafka offset (no wrap to negative).
        guard payloads.count <= 1 || recordOffset <= Int64.max - Int64(payloads.count - 1) else {
            throw ValidationError(
                "--record-offset \(recordOffset): line \(payloads.count - 1) would be past the largest Kafka offset \(Int64.max)"
            )
        }
        var output: [UInt8] = []
        var wroteDeadLetter = false
        for (index, payload) in payloads.enumerated() {
            let record = InputRecord(
                topic: recordTopic, partition: recordPartition, offset: recordOffset + Int64(index),
                key: recordKey.map { Array($0.utf8) }, value: payload, headers: headers,
                timestampMs: recordTimestamp ?? now)
            for produced in translator.translate(record, readAtMs: now) {
                wroteDeadLetter = wroteDeadLetter || produced.isDeadLetter
                output.append(contentsOf: produced.jsonLine())
                output.append(0x0A)
            }
            if output.count > 1 << 16 {
                FileHandle.standardOutput.write(Data(output))
                output.removeAll(keepingCapacity: true)
            }
        }
        FileHandle.standardOutput.write(Data(output))
        if wroteDeadLetter { throw ExitCode(1) }
    }

    /// The translator's settings from the flags (no variables, no file), checked by their ``Settings`` definitions.
    private func configuration() throws -> TranslatorConfiguration {
        try validating { () throws(SettingError) in
            try SettingReader().translatorConfiguration(
                lenient: lenient, maxPayloadBytes: maxPayloadBytes, topics: topics, deadLetterTopic: deadLetterTopic,
                androidFormats: androidFormats)
        }
    }

    /// The described record's headers, each `NAME=VALUE` split at the first `=`.
    private func headers() throws -> [RecordHeader] {
        try validating { () throws(SettingError) in
            try recordHeader.map { text throws(SettingError) -> RecordHeader in
                let entry = try SettingEntry(splitting: text, source: "--record-header")
                return RecordHeader(name: entry.name, text: entry.value)
            }
        }
    }

    private func readInput() throws -> [UInt8] {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ValidationError("cannot read \(file)")
            }
            return Array(data)
        }
        return Array(FileHandle.standardInput.readDataToEndOfFile())
    }

    /// Splits at `\n`; every line, empty ones included, is a payload; a final `\n` starts no line.
    static func splitLines(_ input: [UInt8]) -> [[UInt8]] {
        guard !input.isEmpty else { return [] }
        var lines = input.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if input.last == 0x0A { lines.removeLast() }
        return lines
    }
}
