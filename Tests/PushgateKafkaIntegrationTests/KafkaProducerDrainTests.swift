import Dispatch
import Glibc
import PushgateTestSupport
import Synchronization
import Testing

@testable import PushgateKafka

/// A producer's shutdown destroys its client only once every call that was handing a record over has
/// returned, and learns of the last one from that call, not by polling.
@Suite("A producer's shutdown and the calls in progress")
struct KafkaProducerDrainTests {
    private final class Flag: Sendable {
        let isSet = Atomic<Bool>(false)
    }

    /// Ignores its reports: `@unchecked Sendable` holds, as it holds no state (nor does its base class).
    private final class IgnoringReceiver: KafkaDeliveryReceiver, @unchecked Sendable {}

    @Test func shutdownWaitsForACallInProgressAndGoesOnWhenItEnds() async throws {
        let broker = try EmbeddedBroker(topics: ["drain"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaTestSupport.producer(for: broker)
        // A call past its check of `closed`, as `produce(_:to:)` is while it hands a record over.
        producer.producing.wrappingAdd(1, ordering: .sequentiallyConsistent)
        let finished = Flag()
        let shutdown = Task {
            await producer.shutdown(flushTimeout: .seconds(1))
            finished.isSet.store(true, ordering: .sequentiallyConsistent)
        }
        try await Task.sleep(for: .milliseconds(300))
        let finishedEarly = finished.isSet.load(ordering: .sequentiallyConsistent)
        #expect(!finishedEarly, "the shutdown did not wait for the call")
        producer.endProducing()
        try await waitUntil("the shutdown ends once the call has", timeout: .seconds(20)) {
            finished.isSet.load(ordering: .sequentiallyConsistent)
        }
        await shutdown.value
    }

    @Test func callsRacingTheShutdownEndItAndAreRefusedAfterIt() async throws {
        let broker = try EmbeddedBroker(topics: ["drain.race"], partitions: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let producer = try KafkaTestSupport.producer(for: broker)
        let receiver = IgnoringReceiver()
        let refused = Flag()
        // Four threads hand records over until the producer refuses them; the shutdown starts among them.
        // Threads of their own, not tasks: the loops never suspend and would hold the cooperative pool. A pause
        // of 100 µs between calls keeps the queue small (a full queue makes the flush at shutdown wait out
        // its timeout) while calls still start around the shutdown.
        let producers = DispatchGroup()
        for _ in 0..<4 {
            DispatchQueue.global().async(group: producers) {
                while true {
                    do {
                        _ = try producer.produceIfRoom(
                            KafkaProducerMessage(topic: "drain.race", key: nil, value: [1]), to: receiver)
                        usleep(100)
                    } catch {
                        refused.isSet.store(true, ordering: .sequentiallyConsistent)
                        return
                    }
                }
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        await producer.shutdown(flushTimeout: .seconds(5))
        await withCheckedContinuation { done in producers.notify(queue: .global()) { done.resume() } }
        let wasRefused = refused.isSet.load(ordering: .sequentiallyConsistent)
        let stillProducing = producer.producing.load(ordering: .sequentiallyConsistent)
        #expect(wasRefused)
        #expect(stillProducing == 0)
    }
}
