import Synchronization
import Testing

@testable import PushgateTracing

/// The batch span processor's queue: batches of at most the batch size, a full queue dropping and counting, the
/// exporter woken by a full batch and not before.
@Suite struct SpanExportQueueTests {
    private final class Count: Sendable {
        let value = Mutex(0)
        var total: Int { value.withLock { $0 } }
    }

    @Test func spansAreTakenInBatchesOfAtMostTheBatchSize() {
        let queue = SpanExportQueue(maxQueueSize: 10, maxBatchSize: 4, dropped: { _ in })
        for index in 0..<10 { queue.submit { $0.append([UInt8(index)]) } }
        let batches = queue.take()
        #expect(batches.map(\.count) == [4, 4, 2])
        #expect(batches.flatMap(\.bytes) == Array(0..<10))
        #expect(queue.take().isEmpty)
    }

    @Test func aFullQueueDropsAndCountsTheSpansEndedWhileItIsFull() {
        let dropped = Count()
        let queue = SpanExportQueue(
            maxQueueSize: 3, maxBatchSize: 2, dropped: { n in dropped.value.withLock { $0 += n } })
        for _ in 0..<5 { queue.submit { $0.append([1]) } }
        #expect(dropped.total == 2)
        #expect(queue.take().map(\.count).reduce(0, +) == 3)
        queue.submit { $0.append([1]) }
        #expect(dropped.total == 2, "taking the spans makes room")
        queue.drop(7)
        #expect(dropped.total == 9)
    }

    @Test func theExporterIsWokenByAFullBatchBeforeItsDelay() async {
        let queue = SpanExportQueue(maxQueueSize: 8, maxBatchSize: 2, dropped: { _ in })
        let started = ContinuousClock.now
        async let waited: Void = queue.waitForBatch(upTo: .seconds(30))
        try? await Task.sleep(for: .milliseconds(50))
        queue.submit { $0.append([1]) }
        queue.submit { $0.append([2]) }
        await waited
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(queue.take().map(\.count) == [2])
    }

    @Test func withoutAFullBatchTheExporterWaitsItsDelay() async {
        let queue = SpanExportQueue(maxQueueSize: 8, maxBatchSize: 4, dropped: { _ in })
        queue.submit { $0.append([1]) }
        let started = ContinuousClock.now
        await queue.waitForBatch(upTo: .milliseconds(300))
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(queue.take().map(\.count) == [1])
    }

    @Test func closingWakesTheExporter() async {
        let queue = SpanExportQueue(dropped: { _ in })
        async let waited: Void = queue.waitForBatch(upTo: .seconds(60))
        try? await Task.sleep(for: .milliseconds(50))
        queue.close()
        await waited
        #expect(queue.isClosed)
    }
}
