import BenchProcess
import DirectoryRecords
import Logging
import PushgateKafka
import Synchronization

/// Writes the benchmark's directory records to the directory topic and waits for every acknowledgement.
struct DirectoryFiller {
    let topic: String
    let devices: Int
    let partitions: Int

    /// Writes every record, partition by partition; returns the seconds it took and the value bytes written.
    func fill(servers: String, logger: Logger) async throws -> (seconds: Double, bytes: Int) {
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                bootstrapServers: servers,
                properties: [
                    "linger.ms": "20", "batch.size": "1000000", "queue.buffering.max.messages": "500000",
                    "queue.buffering.max.kbytes": "262144", "enable.idempotence": "false", "acks": "1",
                ]),
            logger: logger)
        let receiver = Acknowledgements()
        let start = ContinuousClock.now
        var bytes = 0
        // Partition by partition, in batches of up to a megabyte, as a directory written over time is stored
        // (librdkafka's mock cluster answers a fetch with one record batch per partition).
        for partition in 0..<partitions {
            for index in stride(from: partition, to: devices, by: partitions) {
                let (key, value) = DirectoryRecords.record(index)
                bytes += key.count + value.count
                var message = KafkaProducerMessage(topic: topic, key: key, value: value)
                message.partition = Int32(partition)
                try await producer.produceWhenQueued(message, to: receiver)
            }
        }
        try await producer.flush(timeout: .seconds(600))
        await producer.shutdown()
        if let failure = receiver.failure { throw BenchmarkError("writing the directory failed: \(failure)") }
        guard receiver.count == devices else {
            throw BenchmarkError("\(receiver.count) of \(devices) records acknowledged")
        }
        return ((ContinuousClock.now - start).seconds, bytes)
    }
}

/// Counts acknowledgements and keeps the first failure.
final class Acknowledgements: KafkaDeliveryReceiver, @unchecked Sendable {
    // `@unchecked Sendable`: its only state is behind the mutex.
    private let state = Mutex<(count: Int, failure: String?)>((0, nil))

    var count: Int { state.withLock { $0.count } }
    var failure: String? { state.withLock { $0.failure } }

    override func received(_ delivery: KafkaDelivery) {
        let error = delivery.error.map { "\($0)" }
        state.withLock { state in
            state.count += 1
            if state.failure == nil, let error { state.failure = error }
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
