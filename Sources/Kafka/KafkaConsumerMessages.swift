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
