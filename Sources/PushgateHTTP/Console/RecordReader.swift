import Logging
import PushgateKafka

/// Reads one record by its offset, with a reader of its own that joins no group.
enum RecordReader {
    /// The record at `offset` of `topic`/`partition`.
    /// - Throws: ``KafkaError`` when it cannot be read within 10 s (gone, or the cluster away).
    static func read(
        topic: String, partition: Int32, offset: Int64, consumer: KafkaConsumerConfiguration, logger: Logger
    ) async throws -> KafkaConsumerMessage {
        var configuration = consumer
        configuration.topics = []
        let reader = try KafkaConsumer(configuration: configuration, logger: logger)
        do {
            try await reader.assign([KafkaTopicPartitionOffset(topic: topic, partition: partition, offset: offset)])
            let found = try await withThrowingTaskGroup(of: KafkaConsumerMessage?.self) { group in
                group.addTask {
                    for try await message in reader.messages where message.offset >= offset {
                        return message.offset == offset ? message : nil
                    }
                    return nil
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(10))
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                return first
            }
            await reader.close()
            guard let found else {
                throw RecordReaderError(description: "\(topic)[\(partition)] has no record at offset \(offset)")
            }
            return found
        } catch {
            await reader.close()
            throw error
        }
    }
}

/// The record asked for is not there (deleted, or never written), or did not come within 10 s.
struct RecordReaderError: Error, CustomStringConvertible {
    let description: String
}
