import Foundation
import PushModel
import PushTranslation
import Testing

/// The differential test: 120,000 generated inputs (valid payloads covering every field of every format,
/// wrong values of every kind, byte mutations of both, oversized payloads) under varied records and
/// settings, each translated and reduced to a digest of everything a translation gives (records,
/// dead-letter reports, warnings). The digests must equal `Differential/reference.txt`, recorded from
/// the translator before it was rewritten for speed and re-recorded for the contract's version 4 (its
/// URLs, web topics and Schema Registry frames): any changed byte of any output fails it. Two more
/// streams of 30,000 inputs each, whose payloads all have a `web` section (so `webpush` is routed too)
/// or a `live_activity` section, must equal `Differential/reference-web.txt` and
/// `Differential/reference-live-activity.txt`. The streams run one after another (the suite is serialized):
/// each keeps a core busy for its whole run, and the other suites' servers must still get to answer.
///
/// Re-record (only for an intended change of output, after review) with
/// `PUSHGATE_RECORD_DIFFERENTIAL=1 swift test --filter DifferentialTests`. To find which inputs differ,
/// `PUSHGATE_DIFFERENTIAL_LINES=PATH` writes one line per input (index, kind, digest) to PATH.SEED
/// (one file per stream): write them before and after a change and `diff` the files.
@Suite(.serialized) struct DifferentialTests {
    /// One recorded stream of generated inputs: how many, from which seed, against which reference.
    struct Stream: Sendable {
        var count: Int
        var seed: UInt64
        /// Whether every payload has `platform.web` and a `web` section (SPEC 5.6).
        var webSections = false
        /// Whether every payload has a `live_activity` section (SPEC 5.1.1).
        var liveActivitySections = false
        var referenceName: String

        var referenceURL: URL {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Differential/\(referenceName)")
        }
    }

    /// Every format but `webpush` (payloads without a `web` section), as first recorded.
    static let main = Stream(count: 120_000, seed: 21, referenceName: "reference.txt")
    /// Payloads that all have `platform.web` and a `web` section, so `webpush` is routed with the others.
    static let web = Stream(count: 30_000, seed: 22, webSections: true, referenceName: "reference-web.txt")
    /// Payloads that all have a `live_activity` section, so `apns` is a Live Activity push.
    static let liveActivity = Stream(
        count: 30_000, seed: 23, liveActivitySections: true, referenceName: "reference-live-activity.txt")

    /// What one run gives: the summary's text, how many records' headers read in place differ from their
    /// list, and the per-input lines (only when asked for).
    struct Run: Sendable {
        var summary: String
        var unequalHeaderReads: Int
        var lines: [UInt8]
    }

    /// Translates every input; on a thread of its own, so that a minute of work does not hold one of the
    /// cooperative pool's threads (one per core) that other suites' asynchronous tests need.
    static func run(_ stream: Stream, writesLines: Bool) async -> Run {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: runHere(stream, writesLines: writesLines)) }.start()
        }
    }

    static func runHere(_ stream: Stream, writesLines: Bool) -> Run {
        var inputs = DifferentialInputs(
            seed: stream.seed, webSections: stream.webSections, liveActivitySections: stream.liveActivitySections)
        var summary = DifferentialSummary()
        var lines: [UInt8] = []
        var unequalHeaderReads = 0
        for index in 0..<stream.count {
            let input = inputs.next(index: index)
            let translation = input.translator.translation(of: input.record, readAtMs: input.readAtMs)
            var digest = FNV64()
            digest.add(translation)
            for record in translation.records where !headersReadInPlaceMatchList(record) {
                unequalHeaderReads += 1
            }
            summary.add(kind: input.kind, translation: translation, digest: digest.value)
            if writesLines { lines += Array("\(index) \(input.kind) \(digest.hex)\n".utf8) }
        }
        return Run(
            summary: summary.text(count: stream.count, seed: stream.seed), unequalHeaderReads: unequalHeaderReads,
            lines: lines)
    }

    @Test func everyGeneratedInputTranslatesAsRecorded() async throws {
        try await check(Self.main)
    }

    @Test func everyGeneratedWebInputTranslatesAsRecorded() async throws {
        try await check(Self.web)
    }

    @Test func everyGeneratedLiveActivityInputTranslatesAsRecorded() async throws {
        try await check(Self.liveActivity)
    }

    /// Runs `stream` and compares its summary with its reference (or records it, when asked to).
    private func check(_ stream: Stream) async throws {
        let environment = ProcessInfo.processInfo.environment
        let linesPath = environment["PUSHGATE_DIFFERENTIAL_LINES"].map { "\($0).\(stream.seed)" }
        let run = await Self.run(stream, writesLines: linesPath != nil)
        if let linesPath {
            try Data(run.lines).write(to: URL(fileURLWithPath: linesPath))
        }
        #expect(run.unequalHeaderReads == 0, "headers read in place (as the producer does) differ from the list")
        let actual = run.summary
        if environment["PUSHGATE_RECORD_DIFFERENTIAL"] == "1" {
            try Data(actual.utf8).write(to: stream.referenceURL)
            return
        }
        let expected = try String(contentsOf: stream.referenceURL, encoding: .utf8)
        let actualLines = actual.split(separator: "\n")
        let expectedLines = expected.split(separator: "\n")
        let differing = zip(actualLines, expectedLines).filter { $0 != $1 }.map { "\($0.0) (recorded: \($0.1))" }
        #expect(actualLines.count == expectedLines.count)
        #expect(differing.isEmpty, "\(differing.count) lines differ, first: \(differing.prefix(3))")
    }

    /// Whether `forEachHeader` and `headerCount` (how the producer reads a record) give the headers of the list.
    static func headersReadInPlaceMatchList(_ record: OutputRecord) -> Bool {
        var read: [RecordHeader] = []
        record.forEachHeader { name, value in
            read.append(
                RecordHeader(
                    name: String(decoding: name, as: UTF8.self),
                    value: value.map { Array($0.bindMemory(to: UInt8.self)) }))
        }
        return read == record.headers && record.headerCount == read.count
    }
}

/// What the differential test records: counts per kind of input and of record, and digests of the
/// whole stream and of each block of 1,000 inputs (to find where a difference is).
struct DifferentialSummary {
    var kinds: [String: Int] = [:]
    var formats: [String: Int] = [:]
    var codes: [String: Int] = [:]
    var stream = FNV64()
    var block = FNV64()
    var blocks: [String] = []
    var inputs = 0

    mutating func add(kind: String, translation: Translation, digest: UInt64) {
        kinds[kind, default: 0] += 1
        for record in translation.records { formats[record.format?.rawValue ?? "dead-letter", default: 0] += 1 }
        for report in translation.deadLetters {
            for error in report.errors { codes[kind + " " + error.code.rawValue, default: 0] += 1 }
        }
        for warning in translation.warnings { codes[kind + " warning " + warning.code.rawValue, default: 0] += 1 }
        stream.add(digest)
        block.add(digest)
        inputs += 1
        if inputs % 1000 == 0 {
            blocks.append("block \(inputs / 1000 - 1) \(block.hex)")
            block = FNV64()
        }
    }

    func text(count: Int, seed: UInt64) -> String {
        var lines = ["inputs \(count) seed \(seed)", "digest \(stream.hex)"]
        lines += kinds.sorted { $0.key < $1.key }.map { "kind \($0.key) \($0.value)" }
        lines += formats.sorted { $0.key < $1.key }.map { "records \($0.key) \($0.value)" }
        lines += codes.sorted { $0.key < $1.key }.map { "code \($0.key) \($0.value)" }
        lines += blocks
        return lines.joined(separator: "\n") + "\n"
    }
}

/// 64-bit FNV-1a over a translation's every field, each length-prefixed so that no two different
/// translations give the same byte stream.
struct FNV64 {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325

    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    mutating func add(_ number: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { add(UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
    }

    mutating func add(_ bytes: some Collection<UInt8>) {
        add(UInt64(bytes.count))
        for byte in bytes { add(byte) }
    }

    mutating func add(_ text: String) { add(text.utf8) }

    mutating func add(optional bytes: (some Collection<UInt8>)?) {
        if let bytes {
            add(UInt8(1))
            add(bytes)
        } else {
            add(UInt8(0))
        }
    }

    mutating func add(_ diagnostics: [Diagnostic]) {
        add(UInt64(diagnostics.count))
        for diagnostic in diagnostics {
            add(diagnostic.code.rawValue)
            add(diagnostic.path)
            add(diagnostic.message)
        }
    }

    mutating func add(_ translation: Translation) {
        add(UInt64(translation.records.count))
        for record in translation.records {
            add(record.topic)
            add(record.format?.rawValue ?? "-")
            add(optional: record.key)
            add(record.value)
            add(UInt64(record.headers.count))
            for header in record.headers {
                add(header.name)
                add(optional: header.value)
            }
        }
        add(UInt64(translation.deadLetters.count))
        for report in translation.deadLetters {
            add(report.stage.rawValue)
            add(report.format?.rawValue ?? "-")
            add(report.errors)
            add(report.id)
            add(report.source)
        }
        add(translation.warnings)
    }
}

/// One generated input: the record, the translator (settings) and the read time.
struct DifferentialInput {
    var kind: String
    var record: InputRecord
    var translator: Translator
    var readAtMs: Int64
}

/// The differential test's inputs, deterministic from a seed: 40% valid payloads, 35% payloads with wrong
/// values, 20% byte mutations of either, 5% whole-payload oddities (oversized for the limit, empty,
/// truncated, framed as Schema Registry serializers write them or with a frame cut short); each with a varied key, headers (forwarded and refused ones), timestamp, source and settings.
struct DifferentialInputs {
    var generator: PayloadGenerator

    init(seed: UInt64, webSections: Bool = false, liveActivitySections: Bool = false) {
        generator = PayloadGenerator(state: seed)
        generator.webSections = webSections
        generator.liveActivitySections = liveActivitySections
    }

    static let translators: [Translator] = [
        Translator(),
        Translator(configuration: TranslatorConfiguration(lenient: true)),
        Translator(configuration: TranslatorConfiguration(androidFormats: OutputFormatSet([.fcm]))),
        Translator(
            configuration: TranslatorConfiguration(
                lenient: true, androidFormats: OutputFormatSet([.androidExpandable, .fcm]))),
        Translator(
            configuration: TranslatorConfiguration(
                topics: [.apns: "ios.out", .fcm: "fcm-topic"], deadLetterTopic: "dead")),
    ]

    static let mutationBytes: [UInt8] =
        Array(##"{}[]":,0123456789.-+eE\"ntrufalsu#/ "##.utf8) + [
            0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xA9, 0xE2, 0xED, 0xA0, 0xF0, 0xF4, 0x90, 0xFF,
        ]

    static let headerChoices: [[RecordHeader]] = [
        [],
        [RecordHeader(name: "trace-id", text: "abc")],
        [RecordHeader(name: "trace-id", text: "abc"), RecordHeader(name: "empty", value: nil)],
        [RecordHeader(name: "pushgate-id", text: "spoof"), RecordHeader(name: "x", text: "1")],
        [RecordHeader(name: "APNS-Priority", text: "10"), RecordHeader(name: "__Connect.Errors.topic", text: "t")],
        [RecordHeader(name: "apns", text: "kept"), RecordHeader(name: "pushgate", text: "kept")],
    ]

    mutating func next(index: Int) -> DifferentialInput {
        var kind: String
        var bytes: [UInt8]
        let draw = generator.below(100)
        if draw < 40 {
            kind = "valid"
            generator.valid = true
            bytes = Array(generator.payload().utf8)
        } else if draw < 75 {
            kind = "wrong"
            generator.valid = false
            bytes = Array(generator.payload().utf8)
        } else if draw < 95 {
            kind = "mutated"
            generator.valid = generator.chance(50)
            bytes = Array(generator.payload().utf8)
            mutate(&bytes)
        } else {
            kind = "odd"
            generator.valid = true
            bytes = Array(generator.payload().utf8)
            switch generator.below(6) {
            case 0: bytes = Array(bytes.prefix(generator.below(bytes.count + 1)))
            case 1: bytes = []
            case 2: bytes = Array("  ".utf8) + bytes + Array("\n".utf8)
            case 3: bytes = Array((bytes + Array(repeating: UInt8(ascii: " "), count: 2000)).prefix(2100))
            // A Schema Registry frame (SPEC 2, version 4), whole or cut short.
            case 4: bytes = [0] + (0..<4).map { _ in UInt8(generator.below(256)) } + bytes
            default: bytes = Array(([0, 0, 0, 1] as [UInt8]).prefix(1 + generator.below(4)))
            }
        }
        var translator = Self.translators[generator.below(Self.translators.count)]
        if kind == "odd" && generator.chance(40) {
            translator = Translator(configuration: TranslatorConfiguration(maxPayloadBytes: 2048))
        }
        let key: [UInt8]? =
            switch generator.below(4) {
            case 0: nil
            case 1: []
            default: Array("user-\(index)".utf8)
            }
        let timestamp: Int64? =
            switch generator.below(6) {
            case 0: nil
            case 1: -1_500
            case 2: Int64.max
            default: 1_700_000_000_000 + Int64(generator.below(1_000_000))
            }
        let record = InputRecord(
            topic: generator.chance(90) ? "push.unified" : "in", partition: Int32(generator.below(64)),
            offset: Int64(index) * 7, key: key, value: bytes,
            headers: Self.headerChoices[generator.below(Self.headerChoices.count)], timestampMs: timestamp)
        return DifferentialInput(kind: kind, record: record, translator: translator, readAtMs: 1_800_000_000_123)
    }

    /// Changes, removes or inserts one to four bytes.
    mutating func mutate(_ bytes: inout [UInt8]) {
        for _ in 0..<(1 + generator.below(4)) {
            if bytes.isEmpty { bytes = [UInt8(ascii: "{")] }
            let position = generator.below(bytes.count)
            let byte = Self.mutationBytes[generator.below(Self.mutationBytes.count)]
            switch generator.below(3) {
            case 0: bytes[position] = byte
            case 1: bytes.remove(at: position)
            default: bytes.insert(byte, at: position)
            }
        }
    }
}
