import Foundation
import Logging
import Synchronization

/// A swift-log handler writing one line per event, as text or JSON (``LogFormat``), with every secret
/// value replaced by `[redacted]` wherever it appears (message and metadata).
public struct PushgateLogHandler: LogHandler {
    /// The minimum level logged.
    public var logLevel: Logger.Level = .info
    /// Metadata added to every event of this logger.
    public var metadata: Logger.Metadata = [:]
    /// Contextual metadata (task locals), merged under the logger's and the event's.
    public var metadataProvider: Logger.MetadataProvider?

    private let label: String
    private let format: LogFormat
    private let redactor: SecretRedactor
    private let output: LogOutput

    /// Creates a handler.
    /// - Parameters:
    ///   - secrets: values that must never be written (the `-X` values of secret properties).
    ///   - output: where lines go; default standard error.
    public init(
        label: String, format: LogFormat, secrets: [String] = [], output: LogOutput = .standardError,
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.label = label
        self.format = format
        self.redactor = SecretRedactor(secrets: secrets)
        self.output = output
        self.metadataProvider = metadataProvider
    }

    /// The metadata value for `key` of this logger.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line for `event`.
    public func log(event: LogEvent) {
        var merged = metadataProvider?.get() ?? [:]
        merged.merge(metadata) { $1 }
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        if let error = event.error { merged["error"] = "\(error)" }
        let message = redactor.redact(event.message.description)
        let fields = merged.sorted { $0.key < $1.key }.map { ($0.key, redactor.redact($0.value.description)) }
        let timestamp = Self.timestamp()
        let line: String
        switch format {
        case .text:
            // Control characters are escaped so that no value (an id from a payload, say) can start
            // a forged line.
            var text = "\(timestamp) \(event.level) \(label): \(Self.escapingControls(message))"
            for (key, value) in fields { text += " \(key)=\(Self.escapingControls(value))" }
            line = text
        case .json:
            var json = "{\"timestamp\":\(JSONText.quoted(timestamp)),\"level\":\(JSONText.quoted(event.level.rawValue))"
            json += ",\"label\":\(JSONText.quoted(label)),\"message\":\(JSONText.quoted(message))"
            if !fields.isEmpty {
                json += ",\"metadata\":{"
                json += fields.map { "\(JSONText.quoted($0.0)):\(JSONText.quoted($0.1))" }.joined(separator: ",")
                json += "}"
            }
            line = json + "}"
        }
        output.write(line)
    }

    /// `text` with control characters written as `\n`, `\t` or `\u{XX}`.
    static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                escaped += scalar.escaped(asASCII: true)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func timestamp() -> String { timestampStyle.format(Date()) }
}

/// Where a ``PushgateLogHandler`` writes its lines: one `write` per line, serialized by a lock.
public final class LogOutput: Sendable {
    private let sink: @Sendable (String) -> Void
    /// Held while a line is written, so lines of concurrent loggers never interleave.
    private let writing = Mutex(())

    /// Lines are given to `write`, one at a time, without their newline.
    public init(_ write: @escaping @Sendable (String) -> Void) { sink = write }

    /// Standard error, one line per write.
    public static let standardError = LogOutput { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    func write(_ line: String) { writing.withLock { _ in sink(line) } }
}

/// Replaces every occurrence of a secret in a text by `[redacted]`.
struct SecretRedactor: Sendable {
    /// Longest first, so a secret containing another is replaced whole.
    let secrets: [String]

    init(secrets: [String]) {
        self.secrets = Set(secrets.filter { !$0.isEmpty }).sorted { $0.count > $1.count }
    }

    func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: "[redacted]")
        }
        return result
    }
}

/// JSON string literals, with only the escapes JSON requires.
enum JSONText {
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
