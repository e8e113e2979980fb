import Logging
import PushModel
import PushTranslation
import PushgateTestSupport
import Testing

@testable import PushWorker

@Suite("The worker logs each dead letter, at warning level")
struct DeadLetterLogTests {
    /// Logged at warning (one line per dead letter, naming its source and codes), skipped without being
    /// built when the level drops warnings.
    @Test(arguments: [(Logger.Level.info, 1), (.warning, 1), (.error, 0)])
    func aDeadLetterIsOneWarningLine(level: Logger.Level, lines: Int) {
        let captured = CapturedLog()
        var logger = Logger(label: "test") { captured.handler(label: $0) }
        logger.logLevel = level
        let worker = PushWorker(
            configuration: PushWorkerConfiguration(bootstrapServers: "127.0.0.1:9"), logger: logger)
        let input = InputRecord(
            topic: "push.unified", partition: 3, offset: 7, key: nil, value: Array("{".utf8), timestampMs: nil)
        let translation = Translator(configuration: TranslatorConfiguration()).translation(of: input, readAtMs: 0)
        #expect(translation.deadLetters.count == 1)
        worker.report(translation)
        #expect(captured.lines == Array(repeating: "warning dead letter", count: lines))
    }
}
