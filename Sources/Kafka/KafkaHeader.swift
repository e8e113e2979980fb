/// One Kafka record header: a name and a value that may be null.
public struct KafkaHeader: Sendable, Hashable {
    /// The header name.
    public var name: String
    /// The header value; `nil` for a null value.
    public var value: [UInt8]?

    /// Creates a header.
    public init(name: String, value: [UInt8]?) {
        self.name = name
        self.value = value
    }
}
