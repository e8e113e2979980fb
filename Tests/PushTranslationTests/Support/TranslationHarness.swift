import Foundation
import PushModel
import PushTranslation

/// A fixed input record description for tests: the same bytes in, the same bytes out.
enum Harness {
    static let timestampMs: Int64 = 1_700_000_000_000

    static func record(
        _ json: String, key: String? = "user-1", headers: [RecordHeader] = [], offset: Int64 = 42,
        timestampMs: Int64? = Harness.timestampMs
    ) -> InputRecord {
        InputRecord(
            topic: "push.unified", partition: 3, offset: offset, key: key.map { Array($0.utf8) },
            value: Array(json.utf8), headers: headers, timestampMs: timestampMs)
    }

    static func translate(
        _ json: String, lenient: Bool = false, headers: [RecordHeader] = [], timestampMs: Int64? = Harness.timestampMs,
        maxPayloadBytes: Int = TranslatorConfiguration.defaultMaxPayloadBytes
    ) -> [OutputRecord] {
        let translator = Translator(
            configuration: TranslatorConfiguration(lenient: lenient, maxPayloadBytes: maxPayloadBytes))
        return translator.translate(
            record(json, headers: headers, timestampMs: timestampMs), readAtMs: 1_800_000_000_000)
    }

    static func translate(bytes: [UInt8], maxPayloadBytes: Int = TranslatorConfiguration.defaultMaxPayloadBytes)
        -> [OutputRecord]
    {
        let translator = Translator(configuration: TranslatorConfiguration(maxPayloadBytes: maxPayloadBytes))
        let record = InputRecord(
            topic: "push.unified", partition: 0, offset: 7, key: nil, value: bytes, headers: [],
            timestampMs: timestampMs)
        return translator.translate(record, readAtMs: timestampMs)
    }
}

/// One problem as read back from `pushgate-errors` or `pushgate-warnings`.
struct Problem: Equatable, CustomStringConvertible {
    let code: String
    let path: String
    let message: String

    var description: String { "\(code) at \"\(path)\"" }
}

extension OutputRecord {
    /// The value of the first header named `name`, as text.
    func header(_ name: String) -> String? {
        headers.first { $0.name == name }.flatMap { $0.value }.map { String(decoding: $0, as: UTF8.self) }
    }

    var headerNames: [String] { headers.map(\.name) }

    var text: String { String(decoding: value, as: UTF8.self) }

    /// The problems listed in `pushgate-errors` (dead letters) or `pushgate-warnings` (outputs).
    var problems: [Problem] {
        guard let json = header(isDeadLetter ? "pushgate-errors" : "pushgate-warnings"),
            let array = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: String]]
        else { return [] }
        return array.map { Problem(code: $0["code"] ?? "", path: $0["path"] ?? "", message: $0["message"] ?? "") }
    }

    /// `(code, path)` pairs of the problems, for compact expectations.
    var codes: [String] { problems.map { "\($0.code) \($0.path)" } }
}

extension Array where Element == OutputRecord {
    var deadLetters: [OutputRecord] { filter(\.isDeadLetter) }
    var outputs: [OutputRecord] { filter { !$0.isDeadLetter } }
    var formats: [String] { map { $0.format?.rawValue ?? "dead-letter" } }

    func output(_ format: OutputFormat) -> OutputRecord? { first { $0.format == format } }

    /// The `(code, path)` pairs of the only dead letter; empty when there is none.
    var errorCodes: [String] { deadLetters.first?.codes ?? [] }
}
