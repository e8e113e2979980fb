/// Protocol Buffers' wire format, written forward into a byte array: the field types OTLP's trace messages use
/// (https://protobuf.dev/programming-guides/encoding/). A nested message is written as a length-delimited field
/// whose length is computed first (``ProtobufWriter/varintSize(_:)``), so nothing is written twice; a field, or a
/// whole span, grows the array once and is then written through a ``ProtobufCursor``.
struct ProtobufWriter {
    /// The wire types of the fields written here.
    enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    /// The memory written into: the first ``count`` bytes are what has been written, the rest room for later
    /// fields (grown by doubling, so that a field costs one bounds check, not one per byte).
    private var storage: [UInt8]
    /// How many bytes have been written.
    private(set) var count = 0

    /// An empty writer with room for `capacity` bytes.
    init(capacity: Int = 0) {
        storage = Self.zeroed(capacity)
    }

    /// An empty writer with room for `capacity` bytes that are not zeroed first: for a batch of spans, which is
    /// written over from its start (and, unlike a span's few hundred bytes, made once per batch).
    init(uninitializedCapacity capacity: Int) {
        storage = [UInt8](unsafeUninitializedCapacity: capacity) { _, initialized in initialized = capacity }
    }

    /// What has been written, copied.
    var bytes: [UInt8] { Array(storage[..<count]) }

    /// Calls `body` with what has been written, without copying it.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        storage.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    /// How many bytes `value` takes as a varint.
    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int {
        // One byte per started group of 7 bits; 0 takes one byte.
        (64 - (value | 1).leadingZeroBitCount + 6) / 7
    }

    /// How many bytes a field `field` takes before its value: its tag.
    @inline(__always)
    static func tagSize(_ field: UInt64) -> Int { varintSize(field << 3) }

    /// How many bytes a length-delimited field `field` of `length` bytes takes in all.
    @inline(__always)
    static func lengthDelimitedSize(_ field: UInt64, length: Int) -> Int {
        tagSize(field) + varintSize(UInt64(length)) + length
    }

    /// Grows the bytes by `size` and lets `body` write exactly those.
    mutating func write(size: Int, _ body: (inout ProtobufCursor) -> Void) {
        let start = count
        if start + size > storage.count { grow(toHold: start + size) }
        count += size
        storage.withUnsafeMutableBufferPointer { buffer in
            var cursor = ProtobufCursor(at: buffer.baseAddress! + start)
            body(&cursor)
            assert(cursor.written == size, "a field's size was computed wrong")
        }
    }

    /// New storage of at least `size` bytes and twice the old, holding what has been written.
    private mutating func grow(toHold size: Int) {
        var grown = Self.zeroed(max(size, 2 * storage.count, 64))
        let written = count
        grown.withUnsafeMutableBytes { target in
            storage.withUnsafeBytes { source in
                if let base = source.baseAddress, written > 0 {
                    target.baseAddress!.copyMemory(from: base, byteCount: written)
                }
            }
        }
        storage = grown
    }

    /// `count` zero bytes, appended from ``zeros`` to an array made with room for them: this toolchain does not
    /// specialize `Array(repeating:count:)` or `Array(unsafeUninitializedCapacity:)`, which looked up the array's
    /// generic metadata (some 600 instructions) for every span.
    private static func zeroed(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        zeros.withUnsafeBufferPointer { zeros in
            while bytes.count < count {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: zeros.prefix(count - bytes.count)))
            }
        }
        return bytes
    }

    /// Zero bytes to append.
    private static let zeros = [UInt8](repeating: 0, count: 4096)

    /// Appends bytes already encoded.
    mutating func append(_ raw: UnsafeRawBufferPointer) { write(size: raw.count) { $0.raw(raw) } }

    /// Appends bytes already encoded.
    mutating func append(_ raw: [UInt8]) { raw.withUnsafeBytes { append($0) } }

    /// The start of a length-delimited field of `length` bytes: its tag and its length; the bytes come next.
    mutating func lengthDelimitedHeader(_ field: UInt64, length: Int) {
        write(size: Self.tagSize(field) + Self.varintSize(UInt64(length))) {
            $0.lengthDelimitedHeader(field, length: length)
        }
    }

    mutating func stringField(_ field: UInt64, _ value: String) {
        write(size: Self.lengthDelimitedSize(field, length: value.utf8.count)) { $0.stringField(field, value) }
    }

    mutating func varintField(_ field: UInt64, _ value: UInt64) {
        write(size: Self.tagSize(field) + Self.varintSize(value)) { $0.varintField(field, value) }
    }
}

/// Writes Protocol Buffers' fields into memory the writer has grown for them (``ProtobufWriter/write(size:_:)``).
struct ProtobufCursor {
    private let start: UnsafeMutablePointer<UInt8>
    private var next: UnsafeMutablePointer<UInt8>

    init(at start: UnsafeMutablePointer<UInt8>) {
        self.start = start
        self.next = start
    }

    /// How many bytes have been written.
    var written: Int { next - start }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        next.pointee = value
        next += 1
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            byte(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        byte(UInt8(value))
    }

    @inline(__always)
    mutating func tag(_ field: UInt64, _ type: ProtobufWriter.WireType) { varint(field << 3 | type.rawValue) }

    @inline(__always)
    mutating func lengthDelimitedHeader(_ field: UInt64, length: Int) {
        tag(field, .lengthDelimited)
        varint(UInt64(length))
    }

    @inline(__always)
    mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        UnsafeMutableRawPointer(next).copyMemory(from: base, byteCount: bytes.count)
        next += bytes.count
    }

    mutating func bytesField(_ field: UInt64, _ value: UnsafeRawBufferPointer) {
        lengthDelimitedHeader(field, length: value.count)
        raw(value)
    }

    mutating func stringField(_ field: UInt64, _ value: String) {
        // In place for a native string (no copy of it, no retain); a bridged one is made contiguous first.
        let written: Void? = value.utf8.withContiguousStorageIfAvailable {
            bytesField(field, UnsafeRawBufferPointer($0))
        }
        guard written == nil else { return }
        var value = value
        value.withUTF8 { bytesField(field, UnsafeRawBufferPointer($0)) }
    }

    /// The decimal digits of `number` (with `-` when negative), `length` characters
    /// (``ProtobufWriter/decimalLength(_:)``), written from the last.
    mutating func decimal(_ number: Int64, length: Int) {
        var magnitude = number.magnitude
        var position = next + length
        repeat {
            position -= 1
            position.pointee = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if number < 0 { next.pointee = UInt8(ascii: "-") }
        next += length
    }

    mutating func varintField(_ field: UInt64, _ value: UInt64) {
        tag(field, .varint)
        varint(value)
    }

    /// The eight bytes of `value` as they lie in memory.
    @inline(__always)
    mutating func word(_ value: UInt64) {
        UnsafeMutableRawPointer(next).storeBytes(of: value, as: UInt64.self)
        next += 8
    }

    mutating func fixed64Field(_ field: UInt64, _ value: UInt64) {
        tag(field, .fixed64)
        withUnsafeBytes(of: value.littleEndian) { raw($0) }
    }

    mutating func fixed32Field(_ field: UInt64, _ value: UInt32) {
        tag(field, .fixed32)
        withUnsafeBytes(of: value.littleEndian) { raw($0) }
    }
}
