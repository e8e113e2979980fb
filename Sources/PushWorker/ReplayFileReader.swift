import Foundation
import PushgateKafka

/// Reads the records of a JSON Lines replay file.
///
/// A line written by `pushgate translate` (an object with `topic`, `format`, `key`, `headers` and
/// `value`) is a dead letter when its `format` is `null`: its exact bytes (`value_base64`, else `value`
/// as text), key and headers are replayed. Translate lines of a format are outputs, not inputs, and are
/// skipped. Any other line, JSON or not, is itself a payload, replayed with no key and no headers.
/// Empty lines are ignored.
public enum ReplayFileReader {
    /// What a file holds: the records to replay and how many lines were skipped as outputs.
    public struct Contents: Sendable {
        /// The records, in file order.
        public var records: [ReplayRecord]
        /// Translate output lines of a format, skipped.
        public var skippedOutputs: Int
    }

    /// Reads `path`. - Throws: when the file cannot be read.
    public static func read(path: String) throws -> Contents {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var contents = Contents(records: [], skippedOutputs: 0)
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            var bytes = Array(line)
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            guard !bytes.isEmpty else { continue }
            switch parse(bytes) {
            case .record(let record): contents.records.append(record)
            case .output: contents.skippedOutputs += 1
            }
        }
        return contents
    }

    /// Whether the line starts like a translate output of a format: `{"topic":"...","format":"`.
    /// (Checked on the bytes: such a line may hold numbers Foundation's JSON parser refuses.)
    private static func isFormatOutputLine(_ bytes: [UInt8]) -> Bool {
        let prefix = Array(#"{"topic":""#.utf8)
        guard bytes.starts(with: prefix) else { return false }
        var index = prefix.count
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return bytes[min(index + 1, bytes.count)...].starts(with: Array(#","format":""#.utf8))
    }

    private enum Line {
        case record(ReplayRecord)
        case output
    }

    private static func parse(_ bytes: [UInt8]) -> Line {
        if isFormatOutputLine(bytes) { return .output }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            object["topic"] is String, object["value"] != nil, let headerPairs = object["headers"] as? [[Any]],
            object.keys.contains("format")
        else { return .record(ReplayRecord(key: nil, value: bytes)) }
        if object["format"] is String { return .output }
        let value: [UInt8]
        if let base64 = object["value_base64"] as? String, let decoded = Data(base64Encoded: base64) {
            value = Array(decoded)
        } else if let text = object["value"] as? String {
            value = Array(text.utf8)
        } else {
            value =
                (try? JSONSerialization.data(withJSONObject: object["value"] ?? NSNull(), options: [.fragmentsAllowed]))
                .map(Array.init) ?? []
        }
        let headers = headerPairs.compactMap { pair -> KafkaHeader? in
            guard let name = pair.first as? String else { return nil }
            return KafkaHeader(name: name, value: (pair.count > 1 ? pair[1] as? String : nil).map { Array($0.utf8) })
        }
        return .record(
            ReplayRecord(key: (object["key"] as? String).map { Array($0.utf8) }, value: value, headers: headers))
    }
}
