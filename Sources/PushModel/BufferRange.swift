/// Where some bytes are in a record's buffer (``OutputRecord``): their offset and count, 32 bits each, so
/// that the places an output keeps add little to the size of the record, which is copied whole where it
/// is handed over. 32 bits always suffice: a buffer holds an input's outputs (at most 4,096 bytes each)
/// and parts of that one input record, which Kafka delivers whole below 2 GiB.
public struct BufferRange: Sendable, Equatable {
    /// The offset of the first byte.
    public var start: UInt32
    /// How many bytes.
    public var count: UInt32

    /// The place of `range` (offsets below 4 GiB).
    @inlinable
    public init(_ range: Range<Int>) {
        start = UInt32(truncatingIfNeeded: range.lowerBound)
        count = UInt32(truncatingIfNeeded: range.count)
    }

    /// The offsets.
    @inlinable
    public var range: Range<Int> { Int(start)..<Int(start) + Int(count) }
}
