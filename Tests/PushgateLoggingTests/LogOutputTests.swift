import Logging
import PushgateLogging
import Synchronization
import Testing

/// ``LogOutput`` writes one line at a time, whichever threads log.
@Suite struct LogOutputTests {
    @Test func concurrentLoggersNeverWriteAtTheSameTime() async {
        let inside = Atomic<Int>(0)
        let mostInside = Atomic<Int>(0)
        let lines = Atomic<Int>(0)
        let output = LogOutput { _ in
            let now = inside.add(1, ordering: .sequentiallyConsistent).newValue
            mostInside.max(now, ordering: .sequentiallyConsistent)
            for _ in 0..<200 { _ = lines.load(ordering: .relaxed) }  // stay inside a little
            lines.add(1, ordering: .relaxed)
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let logger = Logger(label: "t\(task)") {
                        PushgateLogHandler(label: $0, format: .text, output: output)
                    }
                    for line in 0..<200 { logger.info("line \(line)") }
                }
            }
        }
        #expect(lines.load(ordering: .relaxed) == 1600)
        #expect(mostInside.load(ordering: .relaxed) == 1)
    }
}
