import PushgateKafka
import Synchronization

/// The consumers reading one follower's partitions together, closed together.
final class ReaderSet: Sendable {
    private let readers = Mutex<[KafkaConsumer]>([])

    /// The readers, in the order added.
    var all: [KafkaConsumer] { readers.withLock { $0 } }

    /// Adds a reader.
    func add(_ reader: KafkaConsumer) { readers.withLock { $0.append(reader) } }

    /// Closes every reader (closing one twice does nothing).
    func closeAll() async {
        for reader in all { await reader.close() }
    }
}
