import Operations
import Synchronization

/// A log output keeping its lines.
final class CapturedLog: Sendable {
    private let stored = Mutex<[String]>([])
    var lines: [String] { stored.withLock { $0 } }
    var output: LogOutput { LogOutput { line in self.stored.withLock { $0.append(line) } } }
}
