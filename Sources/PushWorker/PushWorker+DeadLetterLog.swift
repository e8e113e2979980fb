import Logging
import PushModel
import PushTranslation

/// How the worker reports translation problems: one log line per dead letter, and metrics.
extension PushWorker {
    /// Logs every dead letter (id, source, stage, codes and paths: never payload contents) and counts
    /// dead letters and warnings.
    func report(_ translation: Translation) {
        metrics.recordDiagnostics(of: translation)
        // The log line's fields take work to build: not for a level that drops it.
        guard logger.logLevel <= .warning else { return }
        for deadLetter in translation.deadLetters {
            var metadata: Logger.Metadata = [
                "id": "\(deadLetter.id)", "source": "\(deadLetter.source)", "stage": "\(deadLetter.stage.rawValue)",
                "codes": "\(Self.distinctCodes(deadLetter.errors))",
                "paths": "\(Self.listedPaths(deadLetter.errors))",
            ]
            if let format = deadLetter.format { metadata["format"] = "\(format.rawValue)" }
            logger.warning("dead letter", metadata: metadata)
        }
    }

    /// The distinct codes of a dead letter's errors, in order of first appearance.
    private static func distinctCodes(_ errors: [Diagnostic]) -> String {
        var seen = Set<DiagnosticCode>()
        return errors.map(\.code).filter { seen.insert($0).inserted }.map(\.rawValue).joined(separator: ",")
    }

    /// The first paths of a dead letter's errors for a log line: at most 20, each at most 200 bytes.
    private static func listedPaths(_ errors: [Diagnostic]) -> String {
        var listed = errors.prefix(20).map { path in
            path.path.utf8.count <= 200
                ? path.path : String(decoding: path.path.utf8.prefix(200), as: UTF8.self) + "..."
        }
        if errors.count > 20 { listed.append("(+\(errors.count - 20) more)") }
        return listed.joined(separator: ",")
    }
}
