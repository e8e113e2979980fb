/// The records a ``KafkaConsumer`` reads, in the order of each partition.
///
/// Iterate it from one task only. It ends when the consumer is closed or the iterating task is
/// cancelled, and throws a fatal ``KafkaError`` when librdkafka raises one.
public struct KafkaConsumerMessages: AsyncSequence, Sendable {
    /// The records.
    public typealias Element = KafkaConsumerMessage

    let buffer: ConsumerMessageBuffer

    /// Iterates the records.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let buffer: ConsumerMessageBuffer

        /// The next record; `nil` once the consumer is closed or the task is cancelled.
        public mutating func next() async throws -> KafkaConsumerMessage? {
            try await buffer.next()
        }
    }

    /// Creates the iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(buffer: buffer) }
}

extension KafkaConsumerMessages {
    /// The same records in batches of at most `maxCount`: whatever is buffered when the iterating task
    /// asks, or a single record when it had to wait. Same order, fewer hand-overs between threads.
    public func batches(maxCount: Int) -> Batches { Batches(buffer: buffer, maxCount: maxCount) }

    /// The records in batches; see ``KafkaConsumerMessages/batches(maxCount:)``.
    public struct Batches: AsyncSequence, Sendable {
        /// A batch of records, never empty.
        public typealias Element = [KafkaConsumerMessage]

        let buffer: ConsumerMessageBuffer
        let maxCount: Int

        /// Iterates the batches.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let buffer: ConsumerMessageBuffer
            let maxCount: Int

            /// The next batch; `nil` once the consumer is closed or the task is cancelled.
            public mutating func next() async throws -> [KafkaConsumerMessage]? {
                let batch = try await buffer.nextBatch(maxCount: maxCount)
                return batch.isEmpty ? nil : batch
            }
        }

        /// Creates the iterator.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(buffer: buffer, maxCount: maxCount) }
    }
}
