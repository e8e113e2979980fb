/// Protocol Buffers' wire format, written forward into a byte array: the field types OTLP's trace messages use
/// (https://protobuf.dev/programming-guides/encoding/). A nested message is written as a length-delimited field
/// whose length is computed first (``ProtobufWriter/varintSize(_:)``), so nothing is written twice.
struct ProtobufWriter {
    /// The wire types of the fields written here.
    enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    /// What has been written.
    private(set) var bytes: [UInt8]

    /// An empty writer with room for `capacity` bytes.
    init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// How many bytes `value` takes as a varint.
    static func varintSize(_ value: UInt64) -> Int {
        // One byte per started group of 7 bits; 0 takes one byte.
        (64 - (value | 1).leadingZeroBitCount + 6) / 7
    }

    /// How many bytes a field `field` takes before its value: its tag.
    static func tagSize(_ field: UInt64) -> Int { varintSize(field << 3) }

    /// How many bytes a length-delimited field `field` of `length` bytes takes in all.
    static func lengthDelimitedSize(_ field: UInt64, length: Int) -> Int {
        tagSize(field) + varintSize(UInt64(length)) + length
    }

    mutating func varint(_ value: UInt64) {
        if value < 0x80 {
            bytes.append(UInt8(value))
            return
        }
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func tag(_ field: UInt64, _ type: WireType) { varint(field << 3 | type.rawValue) }

    /// The start of a length-delimited field of `length` bytes: its tag and its length; the bytes come next.
    mutating func lengthDelimitedHeader(_ field: UInt64, length: Int) {
        tag(field, .lengthDelimited)
        varint(UInt64(length))
    }

    mutating func append(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }

    mutating func bytesField(_ field: UInt64, _ value: UnsafeRawBufferPointer) {
        lengthDelimitedHeader(field, length: value.count)
        bytes.append(contentsOf: value)
    }

    mutating func stringField(_ field: UInt64, _ value: String) {
        lengthDelimitedHeader(field, length: value.utf8.count)
        // One copy of the string's UTF-8 (appending its UTF8View goes byte by byte).
        var value = value
        value.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func varintField(_ field: UInt64, _ value: UInt64) {
        tag(field, .varint)
        varint(value)
    }

    mutating func fixed64Field(_ field: UInt64, _ value: UInt64) {
        tag(field, .fixed64)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func fixed32Field(_ field: UInt64, _ value: UInt32) {
        tag(field, .fixed32)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
