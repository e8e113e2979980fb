import Foundation
import PushModel
import PushTranslation

/// One `POST /api/translate` body: the payload text, the input record it is described as, and the
/// translator options the page can change.
///
/// `{"payload": TEXT, "record": {"topic", "partition", "offset", "key", "headers": [[NAME, VALUE], ..],
/// "timestamp_ms"}, "android_formats": [NAME, ..], "lenient": BOOL}`; everything but `payload` is
/// optional, with the defaults of `pushgate translate` (`push.unified`, 0, 0, no key, no headers, now,
/// `android-expandable`, not lenient).
public struct PlaygroundRequest: Sendable, Equatable {
    /// The input record to translate (its value is the payload's UTF-8 bytes).
    public var record: InputRecord
    /// The formats an Android-routed payload gets.
    public var androidFormats: OutputFormatSet
    /// Whether unknown fields are warnings.
    public var lenient: Bool

    /// Decodes a request body; the error is a message for a person (the 400 body).
    /// - Parameter nowMs: the record timestamp when the request gives none, in ms since the epoch.
    public static func decode(_ body: [UInt8], nowMs: Int64) -> Result<PlaygroundRequest, PlaygroundRequestError> {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(body))
        } catch let error as DecodingError {
            return .failure(PlaygroundRequestError(message: Self.describe(error)))
        } catch {
            return .failure(PlaygroundRequestError(message: "the request is not JSON: \(error)"))
        }
        return wire.request(nowMs: nowMs)
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let names = codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty
                ? "the request" : names.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is required"
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "the request must be a JSON object with \"payload\""
        case .typeMismatch(let type, let context):
            let field = path(context.codingPath)
            return "\(field) must be \(Self.expected[field] ?? Self.typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) must be \(Self.typeName(type)), not null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "the request is not JSON (an object with \"payload\" is expected)" }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "the request cannot be read: \(error)"
        }
    }

    /// What a field holds, for the fields whose Swift type says too little.
    private static let expected = [
        "record": "an object", "record.headers": "an array of [NAME, VALUE] pairs",
        "android_formats": "an array of format names",
    ]

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int32.Type: "an integer 0...2147483647"
        case is Int64.Type: "an integer"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "of another type (\(type))"
        }
    }
}

/// Why a request body cannot be translated: the message of the 400 answer.
public struct PlaygroundRequestError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, naming the field.
    public let message: String
    /// The message.
    public var description: String { message }
}

extension PlaygroundRequest {
    /// The body as sent, before the checks `Decodable` cannot express.
    private struct Wire: Decodable {
        var payload: String
        var record: Record?
        var androidFormats: [String]?
        var lenient: Bool?

        enum CodingKeys: String, CodingKey {
            case payload, record, lenient
            case androidFormats = "android_formats"
        }

        struct Record: Decodable {
            var topic: String?
            var partition: Int32?
            var offset: Int64?
            var key: String?
            var headers: [[String?]]?
            var timestampMs: Int64?

            enum CodingKeys: String, CodingKey {
                case topic, partition, offset, key, headers
                case timestampMs = "timestamp_ms"
            }

            init() {}
        }

        func request(nowMs: Int64) -> Result<PlaygroundRequest, PlaygroundRequestError> {
            let record = self.record ?? Record()
            if let offset = record.offset, offset < 0 {
                return .failure(.init(message: "record.offset must be 0 or more"))
            }
            if let partition = record.partition, partition < 0 {
                return .failure(.init(message: "record.partition must be 0 or more"))
            }
            if let topic = record.topic, topic.isEmpty {
                return .failure(.init(message: "record.topic must not be empty"))
            }
            var headers: [RecordHeader] = []
            for (index, pair) in (record.headers ?? []).enumerated() {
                guard pair.count == 2, let name = pair[0] else {
                    return .failure(
                        .init(message: "record.headers[\(index)] must be [NAME, VALUE] (VALUE may be null)"))
                }
                headers.append(RecordHeader(name: name, value: pair[1].map { Array($0.utf8) }))
            }
            var formats = TranslatorConfiguration.defaultAndroidFormats
            if let names = androidFormats {
                formats = OutputFormatSet()
                for name in names {
                    guard let format = OutputFormat(rawValue: name), format.isAndroidFormat else {
                        let accepted = TranslatorConfiguration.androidFormatNames.joined(separator: ", ")
                        return .failure(
                            .init(message: "android_formats: unknown name '\(name)'; accepted: \(accepted)"))
                    }
                    formats.insert(format)
                }
                if formats.isEmpty { return .failure(.init(message: "android_formats must name at least one format")) }
            }
            let input = InputRecord(
                topic: record.topic ?? TranslatorConfiguration.defaultInputTopic, partition: record.partition ?? 0,
                offset: record.offset ?? 0, key: record.key.map { Array($0.utf8) }, value: Array(payload.utf8),
                headers: headers, timestampMs: record.timestampMs ?? nowMs)
            return .success(PlaygroundRequest(record: input, androidFormats: formats, lenient: lenient ?? false))
        }
    }
}
