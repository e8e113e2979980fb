import Foundation

/// Line-oriented access to standard input and output that never blocks the cooperative thread pool.
public enum StandardStreams {
    /// Writes `text` and a newline to standard output at once (unbuffered), so a reading process sees it.
    public static func writeLine(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes `text` to standard error at once (no newline added).
    public static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// The lines of standard input, read on a dedicated thread; the sequence ends at end of input.
    public static func inputLines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        let thread = Thread {
            while let line = readLine(strippingNewline: true) { continuation.yield(line) }
            continuation.finish()
        }
        thread.name = "stdin-reader"
        thread.start()
        return stream
    }
}
