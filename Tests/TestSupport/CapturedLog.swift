import Logging
import Synchronization

/// A log handler keeping `LEVEL MESSAGE` lines, for tests that check what was logged and in which order.
public final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    /// The lines logged so far, oldest first.
    public var messages: [String] { lines.withLock { $0 } }

    /// A handler writing into this log; every level is kept.
    public func handler(label: String = "captured") -> some LogHandler { Handler(log: self) }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.lines.withLock { $0.append("\(event.level) \(event.message)") }
        }
    }
}
