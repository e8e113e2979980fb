/// One Kafka record header: a name and a value that may be null.
public struct KafkaHeader: Sendable, Hashable {
    /// The header name.
    public var name: String
    /// The header value; `nil` for a null value. A slice: header values of one record may share a buffer.
    public var value: ArraySlice<UInt8>?

    /// Creates a header.
    public init(name: String, value: [UInt8]?) {
        self.name = name
        self.value = value?[...]
    }

    /// Creates a header from part of a byte buffer (shared, not copied).
    public init(name: String, bytes: ArraySlice<UInt8>?) {
        self.name = name
        self.value = bytes
    }
}
