import Foundation
import Logging

/// A log handler keeping `LEVEL MESSAGE` lines.
final class CapturedLog: LogHandler, @unchecked Sendable {
    // @unchecked: `lines` is only touched under `lock`; the other properties are set before use.
    private let lock = NSLock()
    private var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var messages: [String] { lock.withLock { lines } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock { lines.append("\(event.level) \(event.message)") }
    }
}
