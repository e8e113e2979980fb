/// A record as a producer reads it. ``KafkaProducerMessage`` is one; records of other modules conform
/// so they are handed to librdkafka in place (librdkafka copies them during the call), with no
/// conversion. The requirements are concrete types so that producing one costs no generic dispatch.
public protocol KafkaProducible {
    /// The topic to write to.
    var topic: String { get }
    /// The partition; `nil` lets the partitioner choose from the key.
    var partition: Int32? { get }
    /// The key; `nil` for none.
    var key: [UInt8]? { get }
    /// The value.
    var value: [UInt8] { get }
    /// The timestamp in milliseconds since the epoch; `nil` lets the producer use the current time.
    var timestampMs: Int64? { get }
    /// How many headers the record has.
    var headerCount: Int { get }
    /// The header at `index` (0 ..< ``headerCount``, in order): its name and its value, `nil` for null.
    func header(at index: Int) -> (name: String, value: ArraySlice<UInt8>?)
}

extension KafkaProducerMessage: KafkaProducible {
    /// How many headers the record has.
    public var headerCount: Int { headers.count }

    /// The header at `index`.
    public func header(at index: Int) -> (name: String, value: ArraySlice<UInt8>?) {
        (headers[index].name, headers[index].value)
    }
}
