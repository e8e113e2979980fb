import Logging
import PushDelivery
import PushgateKafka
import PushgateTestSupport
import Testing

/// The directory reader against the embedded broker (SPEC 10.1): caught up at the ends found at start,
/// then following; invalid values logged without their token and counted.
@Suite(.timeLimit(.minutes(2)))
struct DirectoryReaderTests {
    static let token = String(repeating: "0f", count: 32)
    static let topic = "push.devices"

    static func apnsValue(audience: String, token: String = token) -> [UInt8] {
        Array(#"{"audience":"\#(audience)","platform":"apns","app":"com.example","apns":{"token":"\#(token)"}}"#.utf8)
    }

    static func record(_ id: String, _ value: [UInt8]?) -> KafkaProducerMessage {
        KafkaProducerMessage(topic: topic, key: Array(id.utf8), value: value ?? [], valueIsNull: value == nil)
    }

    static func write(_ records: [KafkaProducerMessage], to broker: EmbeddedBroker) async throws {
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(bootstrapServers: broker.bootstrapServers),
            logger: BrokerTesting.logger("producer", level: .warning))
        for record in records { _ = try await producer.send(record) }
        await producer.shutdown()
    }

    /// Waits for the reader to catch up, failing after `seconds`.
    static func caughtUp(_ reader: DirectoryReader, seconds: Int = 30) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await reader.waitUntilCaughtUp() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw TimedOut(what: "the reader to catch up")
            }
            try await group.next()
            group.cancelAll()
        }
    }

    @Test func everyRecordWrittenBeforeStartIsAppliedWhenCaughtUpThenChangesFollow() async throws {
        let broker = try EmbeddedBroker(
            topics: [Self.topic], partitions: 3, logger: BrokerTesting.logger("b", level: .warning))
        defer { broker.shutdown() }
        var records = (0..<600).map { Self.record("d\($0)", Self.apnsValue(audience: "u\($0 % 50)")) }
        records += (0..<100).map { Self.record("d\($0)", nil) }  // tombstones: d0..d99 removed
        records.append(
            Self.record(
                "d100",
                Array(#"{"audience":"u0","platform":"apns","app":"a","apns":{"token":"zz\#(Self.token)"}}"#.utf8)))
        try await Self.write(records, to: broker)

        let log = CapturedLog()
        let directory = DeviceDirectory()
        let reader = DirectoryReader(
            bootstrapServers: broker.bootstrapServers, directory: directory, parser: DirectoryRecordParser(),
            logger: Logger(label: "directory", factory: log.handler))
        #expect(!reader.isCaughtUp)
        let running = Task { try await reader.run() }
        defer { running.cancel() }
        try await Self.caughtUp(reader)
        // Caught up means every record before the ends found at start is applied.
        #expect(directory.deviceCount == 499)
        #expect(directory.ignoredRecordCount == 1 && directory.device(id: "d100") == nil)
        #expect(directory.devices(audience: "u1", platform: .apns).count == 10)  // d101, d151, ... d551: 10
        let warnings = log.lines.filter { $0.contains("ignored the record") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("/apns/token: must be hexadecimal digits") == true)
        #expect(warnings.first?.contains("push.devices[") == true && warnings.first?.contains("]@") == true)
        #expect(!log.lines.contains { $0.contains(Self.token) })

        // Following: a new device, a removed one, an invalid value that replaces a valid one.
        directory.markGone(deviceID: "d200")
        try await Self.write(
            [
                Self.record("new", Self.apnsValue(audience: "u-new")), Self.record("d101", nil),
                Self.record("d151", Array(#"{"audience":"u1"}"#.utf8)),
                Self.record("d200", Self.apnsValue(audience: "u0")),
            ], to: broker)
        try await waitUntil("the changes to be applied", timeout: .seconds(30)) {
            directory.device(id: "new") != nil && directory.device(id: "d101") == nil
                && directory.device(id: "d151") == nil && !directory.isGone(id: "d200")
        }
        #expect(directory.ignoredRecordCount == 2 && directory.deviceCount == 498)
        #expect(directory.devices(audience: "u-new", platform: .apns).map(\.id) == ["new"])
    }

    @Test func anEmptyOrMissingTopicIsCaughtUpAtOnce() async throws {
        let broker = try EmbeddedBroker(
            topics: [Self.topic], partitions: 2, logger: BrokerTesting.logger("b", level: .warning))
        defer { broker.shutdown() }
        for topic in [Self.topic, "never.written"] {
            let directory = DeviceDirectory()
            let reader = DirectoryReader(
                topic: topic, bootstrapServers: broker.bootstrapServers, directory: directory,
                parser: DirectoryRecordParser(), logger: BrokerTesting.logger("directory", level: .warning))
            let running = Task { try await reader.run() }
            try await Self.caughtUp(reader)
            #expect(directory.deviceCount == 0)
            running.cancel()
            try await running.value
        }
    }

    @Test func aReaderThatCannotReachTheClusterIsNotCaughtUpAndKeepsTrying() async throws {
        let log = CapturedLog()
        let reader = DirectoryReader(
            bootstrapServers: "127.0.0.1:1", properties: ["socket.connection.setup.timeout.ms": "1000"],
            directory: DeviceDirectory(), parser: DirectoryRecordParser(), retryDelay: .milliseconds(200),
            logger: Logger(label: "directory", factory: log.handler))
        let running = Task { try await reader.run() }
        try await waitUntil("a warning", timeout: .seconds(30)) { log.lines.contains { $0.contains("cannot read") } }
        #expect(!reader.isCaughtUp)
        running.cancel()
        try await running.value
    }
}
