import Foundation
import PushgateKafka
import Synchronization
import Testing

/// Counts the reports of the records it was produced with and the threads they came on.
private final class ThreadNotingReceiver: KafkaDeliveryReceiver, @unchecked Sendable {
    let reports = Mutex<(succeeded: Int, failed: Int, threads: Set<UInt>)>((0, 0, []))
    let onReport: @Sendable () -> Void

    init(onReport: @escaping @Sendable () -> Void) { self.onReport = onReport }

    override func received(_ delivery: KafkaDelivery) {
        reports.withLock { reports in
            if delivery.succeeded { reports.succeeded += 1 } else { reports.failed += 1 }
            reports.threads.insert(UInt(pthread_self()))
        }
        onReport()
    }
}

@Suite("Inline reading: one thread reads, produces and serves the reports", .timeLimit(.minutes(2)))
struct KafkaInlineReadingTests {
    /// Every record is handled in place on the poll thread, which also serves the producer's reports; it
    /// takes records only while the application has room, and none once reading has stopped.
    @Test func recordsAndReportsShareOneThreadWithinTheBoundUntilReadingStops() async throws {
        let broker = try EmbeddedBroker(
            topics: ["inline.in", "inline.out"], partitions: 2, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let feeder = try KafkaTestSupport.producer(for: broker)
        for index in 0..<60 {
            _ = try await feeder.send(
                KafkaProducerMessage(
                    topic: "inline.in", key: Array("k\(index % 5)".utf8), value: Array("\(index)".utf8)))
        }

        let bound = 4
        let inFlight = Mutex((now: 0, most: 0))
        let signal = try KafkaEventSignal()
        let settled = Mutex(0)
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(bootstrapServers: broker.bootstrapServers),
            logger: KafkaTestSupport.logger, afterReports: { settled.withLock { $0 += 1 } }, reportServing: .caller)
        producer.signalEvents(to: signal)
        let receiver = ThreadNotingReceiver { inFlight.withLock { $0.now -= 1 } }
        let handled = Mutex<(values: [String], threads: Set<UInt>, epochs: Set<UInt64>)>(([], [], []))
        let batches = Mutex(0)
        let reading = KafkaInlineReading(
            signal: signal, hasRoom: { inFlight.withLock { $0.now < bound } },
            serve: { producer.serveReports(waitingUpToMs: $0) },
            handle: { record, epoch in
                let value = record.withValue { Array($0) }
                handled.withLock { handled in
                    handled.values.append(String(decoding: value, as: UTF8.self))
                    handled.threads.insert(UInt(pthread_self()))
                    handled.epochs.insert(epoch)
                }
                inFlight.withLock { inFlight in
                    inFlight.now += 1
                    inFlight.most = max(inFlight.most, inFlight.now)
                }
                let copy = KafkaProducerMessage(topic: "inline.out", key: nil, value: value)
                #expect(throws: Never.self) { _ = try producer.produceIfRoom(copy, to: receiver) }
            },
            afterRecords: { batches.withLock { $0 += 1 } })
        let consumer = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                bootstrapServers: broker.bootstrapServers, groupId: "inline", topics: ["inline.in"],
                properties: KafkaTestSupport.quickGroup.merging(["auto.offset.reset": "earliest"]) { $1 }),
            logger: KafkaTestSupport.logger, inlineReading: reading)

        let deadline = ContinuousClock.now + .seconds(60)
        while receiver.reports.withLock({ $0.succeeded }) < 60 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let reports = receiver.reports.withLock { $0 }
        let seen = handled.withLock { $0 }
        #expect(reports.succeeded == 60 && reports.failed == 0)
        #expect(Set(seen.values) == Set((0..<60).map { "\($0)" }) && seen.values.count == 60, "each record once")
        #expect(seen.threads.count == 1, "one thread handled every record")
        #expect(reports.threads == seen.threads, "and served every report")
        #expect(!seen.epochs.contains(0), "records come with their partition's assignment epoch")
        #expect(inFlight.withLock { $0.most } <= bound, "never more records taken than there was room for")
        #expect(batches.withLock { $0 } >= 1)
        #expect(settled.withLock { $0 } >= 1, "afterReports ran after the served reports")

        consumer.stopReading()
        try await Task.sleep(for: .milliseconds(200))
        for index in 60..<70 {
            _ = try await feeder.send(
                KafkaProducerMessage(topic: "inline.in", key: nil, value: Array("\(index)".utf8)))
        }
        try await Task.sleep(for: .seconds(1))
        #expect(handled.withLock { $0.values.count } == 60, "nothing is read once reading has stopped")
        try await consumer.commit([])
        await consumer.close()
        await producer.shutdown()
        await feeder.shutdown()
    }

    /// A producer whose reports its caller serves reports nothing until asked, then on the asking thread.
    @Test func aCallerServedProducerReportsOnlyWhenAsked() async throws {
        let broker = try EmbeddedBroker(topics: ["served"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(bootstrapServers: broker.bootstrapServers),
            logger: KafkaTestSupport.logger, reportServing: .caller)
        let receiver = ThreadNotingReceiver {}
        _ = try producer.produceIfRoom(KafkaProducerMessage(topic: "served", key: nil, value: [1]), to: receiver)
        try await Task.sleep(for: .milliseconds(500))
        #expect(receiver.reports.withLock { $0.succeeded } == 0, "acknowledged by now, but not served")
        let thread: UInt = await Self.onThread {
            let deadline = ContinuousClock.now + .seconds(20)
            while receiver.reports.withLock({ $0.succeeded }) == 0 && ContinuousClock.now < deadline {
                producer.serveReports(waitingUpToMs: 100)
            }
            return UInt(pthread_self())
        }
        let reports = receiver.reports.withLock { $0 }
        #expect(reports.succeeded == 1)
        #expect(reports.threads == [thread], "served on the caller's thread")
        try await producer.flush(timeout: .seconds(5))
        await producer.shutdown()
        #expect(!producer.serveReports(waitingUpToMs: 0), "nothing served once shut down")
        let waited = await Self.onThread {
            let started = ContinuousClock.now
            let served = producer.serveReports(waitingUpToMs: 50)
            return (served, ContinuousClock.now - started)
        }
        #expect(!waited.0)
        #expect(waited.1 >= .milliseconds(45), "but the wait is waited, so a loop does not spin")
    }

    /// Runs `body`, which blocks, on a thread of its own (never on the cooperative pool).
    private static func onThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
