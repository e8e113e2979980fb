import PushModel

/// A record of an output topic, as `pushgate deliver` read it (SPEC 10.2).
public struct DeliveredRecord: Sendable {
    /// The output topic it was read from.
    public var topic: String
    /// Its partition.
    public var partition: Int32
    /// Its offset.
    public var offset: Int64
    /// Its key: the audience whose devices receive it (`nil`: no device).
    public var key: String?
    /// Its value: the platform's payload, sent byte for byte (APNs, web push) or with the token inserted (FCM).
    public var value: [UInt8]
    /// Its headers, in order.
    public var headers: [(name: String, value: [UInt8])]
    /// Its timestamp, in milliseconds since 1970 (the base of `webpush-ttl` and FCM's `android.ttl`).
    public var timestampMilliseconds: Int64
    /// Its format, from the `pushgate-format` header (or the topic it was read from).
    public var format: OutputFormat

    /// Creates a record.
    public init(
        topic: String, partition: Int32, offset: Int64, key: String?, value: [UInt8],
        headers: [(name: String, value: [UInt8])], timestampMilliseconds: Int64, format: OutputFormat
    ) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.headers = headers
        self.timestampMilliseconds = timestampMilliseconds
        self.format = format
    }

    /// The first header of that name, as text (`nil` when absent or not UTF-8).
    public func header(_ name: String) -> String? {
        guard let header = headers.first(where: { $0.name == name }) else { return nil }
        return String(validating: header.value, as: UTF8.self)
    }

    /// `TOPIC:PARTITION:OFFSET`, as receipts name the record (SPEC 10.7).
    public var coordinates: String { "\(topic):\(partition):\(offset)" }
}
