import Foundation
import Logging
import PushDelivery
import PushModel
import PushgateKafka
import PushgateTestSupport
import ServiceLifecycle
import Testing

/// The delivery worker against the embedded broker (SPEC 10.2, 10.6, 10.7): records in, receipts read back
/// by an independent client (confluent-kafka), offsets committed only once every earlier record is final.
@Suite(.serialized)
struct WorkerDeliveryIntegrationTests {
    static let topics = ["push.apns", "push.adobe.carousel", "push.fb.card", "push.receipts"]

    private func record(key: String, offset: Int) -> PythonKafkaClient.Record {
        PythonKafkaClient.Record(
            key: Array(key.utf8), value: Array(#"{"aps":{"alert":"hi"}}"#.utf8),
            headers: [
                ("pushgate-id", Array("id-\(offset)".utf8)), ("pushgate-format", Array("apns".utf8)),
                ("pushgate-source", Array("push.unified:0:\(offset)".utf8)),
                ("apns-push-type", Array("alert".utf8)),
            ])
    }

    @Test func receiptsAreWrittenAndTheOffsetWaitsForTheSlowestEarlierRecord() async throws {
        let broker = try EmbeddedBroker(topics: Self.topics, partitions: 1, logger: Logger(label: "broker"))
        let bootstrap = broker.bootstrapServers
        let slow = WorkerGate()
        let directory = WorkerDirectory([
            Device(id: "slow-device", audience: "user-a", app: nil, address: Self.apnsAddress),
            Device(id: "gone-device", audience: "user-b", app: nil, address: Self.apnsAddress),
        ])
        let sender = WorkerScriptedSender(
            gone: ["gone-device"], gates: ["slow-device": slow])
        let group = "deliver-\(UInt32.random(in: 0...UInt32.max))"
        var configuration = DeliveryConfiguration(
            bootstrapServers: bootstrap, groupId: group, receipts: .all,
            apns: APNsSettings(bundleID: "com.example.app"),
            kafkaProperties: BrokerTesting.quickGroup.merging(BrokerTesting.producerFaultSafe) { $1 },
            commitInterval: .milliseconds(200))
        configuration.retry = RetryPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(50))
        let services = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(
                        service: DeliveryWorker(
                            configuration: configuration,
                            services: DeliveryServices(directory: directory, directoryCaughtUp: {}, senders: [sender]),
                            logger: BrokerTesting.logger("deliver", level: .warning)),
                        successTerminationBehavior: .gracefullyShutdownGroup)
                ],
                logger: BrokerTesting.logger("services", level: .warning)))
        let running = Task { try await services.run() }

        try await PythonKafkaClient.produce(
            [record(key: "user-a", offset: 0), record(key: "user-b", offset: 1), record(key: "user-c", offset: 2)],
            to: "push.apns", bootstrap: bootstrap)
        // The two later records finish: their receipts come, the first record's does not.
        let early = try await PythonKafkaClient.dump(["push.receipts"], bootstrap: bootstrap, expect: 2)
        #expect(
            Set(early.compactMap { $0.keyBytes.map { String(decoding: $0, as: UTF8.self) } }) == [
                "gone-device", "user-c",
            ])
        try await Task.sleep(for: .seconds(1))
        let before = try await PythonKafkaClient.committed(group: group, topic: "push.apns", bootstrap: bootstrap)
        #expect((before["0"] ?? -1) <= 0, "committed past an unfinished record: \(before)")

        slow.open()
        let all = try await PythonKafkaClient.dump(["push.receipts"], bootstrap: bootstrap, expect: 3)
        let committed = try await eventually("offset 3 committed") { () async throws -> [String: Int64]? in
            let committed = try await PythonKafkaClient.committed(
                group: group, topic: "push.apns", bootstrap: bootstrap)
            return committed["0"] == 3 ? committed : nil
        }
        #expect(committed == ["0": 3])
        await services.triggerGracefulShutdown()
        try await running.value

        let byKey = Dictionary(
            all.map { (String(decoding: $0.keyBytes ?? [], as: UTF8.self), $0) },
            uniquingKeysWith: { first, _ in first })
        let gone = try #require(byKey["gone-device"])
        let goneValue = String(decoding: gone.valueBytes, as: UTF8.self)
        #expect(
            goneValue.hasPrefix(
                #"{"outcome":"gone","platform":"apns","device":"gone-device","audience":"user-b","app":"com.example.app","record":"push.apns:0:1","source":"push.unified:0:1","id":"id-1","format":"apns","status":410,"reason":"Unregistered","attempts":1,"at":"#
            ))
        #expect(gone.headerPairs.map(\.0) == ["pushgate-outcome", "pushgate-source", "pushgate-id"])
        #expect(gone.headerPairs.first?.1 == Array("gone".utf8))
        let noDevice = String(decoding: byKey["user-c"].map(\.valueBytes) ?? [], as: UTF8.self)
        #expect(
            noDevice.hasPrefix(
                #"{"outcome":"no_device","platform":"apns","audience":"user-c","record":"push.apns:0:2""#))
        let delivered = String(decoding: byKey["slow-device"].map(\.valueBytes) ?? [], as: UTF8.self)
        #expect(delivered.hasPrefix(#"{"outcome":"delivered""#))
        #expect(directory.gone == ["gone-device"])
    }

    @Test func sigtermAbandonsWhatIsNotFinalWithinTheShutdownTimeoutAndCommitsNothingPastIt() async throws {
        let broker = try EmbeddedBroker(topics: Self.topics, partitions: 1, logger: Logger(label: "broker"))
        let bootstrap = broker.bootstrapServers
        let never = WorkerGate()
        let directory = WorkerDirectory([Device(id: "stuck", audience: "user-a", app: nil, address: Self.apnsAddress)])
        let sender = WorkerScriptedSender(gone: [], gates: ["stuck": never])
        let group = "deliver-\(UInt32.random(in: 0...UInt32.max))"
        let configuration = DeliveryConfiguration(
            bootstrapServers: bootstrap, groupId: group, receipts: .all,
            kafkaProperties: BrokerTesting.quickGroup.merging(BrokerTesting.producerFaultSafe) { $1 },
            shutdownTimeout: .seconds(3), commitInterval: .milliseconds(200))
        let services = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(
                        service: DeliveryWorker(
                            configuration: configuration,
                            services: DeliveryServices(directory: directory, directoryCaughtUp: {}, senders: [sender]),
                            logger: BrokerTesting.logger("deliver", level: .warning)),
                        successTerminationBehavior: .gracefullyShutdownGroup)
                ],
                logger: BrokerTesting.logger("services", level: .warning)))
        let running = Task { try await services.run() }
        try await PythonKafkaClient.produce(
            [record(key: "user-a", offset: 0), record(key: "user-b", offset: 1)], to: "push.apns",
            bootstrap: bootstrap)
        // The second record (no device) is final; the first never gets an answer.
        let receipts = try await PythonKafkaClient.dump(["push.receipts"], bootstrap: bootstrap, expect: 1)
        #expect(receipts.map(\.keyBytes) == [Array("user-b".utf8)])
        let stopping = ContinuousClock.now
        await services.triggerGracefulShutdown()
        try await running.value
        // The push never gets an answer: a worker that waited for it would not stop at all. The margin over the
        // 3 s timeout is for a loaded machine (the group's leave and the producer's flush come after it).
        #expect(ContinuousClock.now - stopping < .seconds(3) + .seconds(12))
        let committed = try await PythonKafkaClient.committed(group: group, topic: "push.apns", bootstrap: bootstrap)
        #expect((committed["0"] ?? -1) <= 0, "committed past the abandoned record: \(committed)")
        never.open()
    }

    static let apnsAddress = Device.Address.apns(token: String(repeating: "0f", count: 32), environment: .production)
}
