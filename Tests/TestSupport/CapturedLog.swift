import Logging
import PushgateLogging
import Synchronization

/// A log kept in memory, for tests that check what was logged and in which order: as `LEVEL MESSAGE`
/// lines (`LEVEL MESSAGE METADATA` when made with `metadata: true`) through ``handler(label:)``, or as the
/// lines pushgate's own log handler writes through ``output``.
public final class CapturedLog: Sendable {
    private let stored = Mutex<[String]>([])
    private let keepsMetadata: Bool

    /// A log keeping each line's metadata (the logger's and the event's, merged) too when `metadata` is true.
    public init(metadata: Bool = false) { keepsMetadata = metadata }

    /// The lines logged so far, oldest first.
    public var lines: [String] { stored.withLock { $0 } }

    /// The lines logged so far, one a line.
    public var text: String { lines.joined(separator: "\n") }

    /// A handler keeping `LEVEL MESSAGE` lines; every level is kept unless the logger says otherwise.
    public func handler(label: String = "captured") -> some LogHandler { Handler(log: self) }

    /// An output for `PushgateLogHandler`, keeping each line it writes.
    public var output: LogOutput { LogOutput { line in self.stored.withLock { $0.append(line) } } }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var line = "\(event.level) \(event.message)"
            if log.keepsMetadata { line += " \(metadata.merging(event.metadata ?? [:]) { $1 })" }
            log.stored.withLock { $0.append(line) }
        }
    }
}
