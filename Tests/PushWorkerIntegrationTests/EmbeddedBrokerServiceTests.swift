import PushWorker
import PushgateKafka
import ServiceLifecycleTestKit
import Synchronization
import Testing

@Suite("pushgate broker: control commands answered in order, graceful shutdown stops the broker")
struct EmbeddedBrokerServiceTests {
    @Test func commandsAreAnsweredInOrderAndGracefulShutdownStopsTheBroker() async throws {
        let broker = try EmbeddedBroker(topics: ["controlled"], partitions: 1, logger: WorkerTestSupport.logger)
        let (lines, input) = AsyncStream.makeStream(of: String.self)
        let answers = Mutex<[String]>([])
        let service = EmbeddedBrokerService(
            broker: broker, controlLines: lines, answer: { reply in answers.withLock { $0.append(reply) } })
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                for line in ["rtt 1 5", "error Produce NOT_LEADER_FOR_PARTITION 2", "clear Produce", "nonsense 1"] {
                    input.yield(line)
                }
                // A bound for a broken service only: on a loaded machine the four answers may take seconds.
                let deadline = ContinuousClock.now + .seconds(120)
                while answers.withLock({ $0.count }) < 4, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
        let replies = answers.withLock { $0 }
        #expect(replies.prefix(3) == ["ok", "ok", "ok"])
        #expect(replies.count == 4 && replies[3].hasPrefix("error: "), "an unknown command is answered, not fatal")
        #expect(broker.perform(controlCommand: "rtt 1 5").hasPrefix("error: "), "after shutdown the broker is gone")
    }
}
