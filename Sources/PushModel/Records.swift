/// One Kafka record header: a name and a value that may be null.
public struct RecordHeader: Sendable, Equatable, Hashable {
    /// The header name.
    public var name: String
    /// The header value as bytes; `nil` for a Kafka null header value. A slice, so that the headers of
    /// one translation can share one buffer (the translator writes them all into one allocation).
    public var value: ArraySlice<UInt8>?

    /// Creates a header from a name and raw bytes.
    public init(name: String, value: [UInt8]?) {
        self.name = name
        self.value = value?[...]
    }

    /// Creates a header from a name and part of a byte buffer (shared, not copied).
    public init(name: String, bytes: ArraySlice<UInt8>?) {
        self.name = name
        self.value = bytes
    }

    /// Creates a header whose value is UTF-8 text.
    public init(name: String, text: String) {
        self.name = name
        self.value = Array(text.utf8)[...]
    }
}

/// An input record as read from the input topic: where it came from and its bytes.
public struct InputRecord: Sendable, Equatable {
    /// The topic the record was read from.
    public var topic: String
    /// The partition the record was read from.
    public var partition: Int32
    /// The record's offset in its partition.
    public var offset: Int64
    // The optional properties are spelled `Optional<T>`, not `T?`: see ``OutputRecord`` (a `T?` made the
    // initializer copy the whole record on its way out, retaining and releasing what it holds).

    /// The record key, `nil` when the record has none.
    public var key: Optional<[UInt8]>
    /// The record value: the unified payload bytes.
    public var value: [UInt8]
    /// Whether the value is null (a tombstone), not empty: `value` is then empty, and the record's dead
    /// letter keeps the null.
    public var valueIsNull: Bool
    /// The record headers, in record order.
    public var headers: [RecordHeader]
    /// The record timestamp in milliseconds since the epoch, `nil` when the record carries none.
    public var timestampMs: Optional<Int64>

    /// Creates an input record.
    public init(
        topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8],
        headers: [RecordHeader] = [], timestampMs: Int64?, valueIsNull: Bool = false
    ) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.valueIsNull = valueIsNull && value.isEmpty
        self.headers = headers
        self.timestampMs = timestampMs
    }

    /// `TOPIC:PARTITION:OFFSET`, the record's source reference.
    public var sourceReference: String {
        var topic = topic
        return topic.withUTF8 { topicBytes in
            String(unsafeUninitializedCapacity: SourceReference.capacity(topicLength: topicBytes.count)) {
                SourceReference.write(topic: topicBytes, partition: partition, offset: offset, into: $0)
            }
        }
    }
}

/// `TOPIC:PARTITION:OFFSET`, how pushgate names a record's place (`pushgate-source`, a dead letter's id),
/// written without intermediate strings.
enum SourceReference {
    /// The most bytes the reference takes for a topic of `topicLength` bytes: with a colon, at most 11
    /// bytes of partition, a colon and at most 20 of offset.
    static func capacity(topicLength: Int) -> Int { topicLength + 34 }

    /// Writes the reference into `buffer`, which has room for ``capacity(topicLength:)`` bytes; the
    /// number of bytes written.
    static func write(
        topic: UnsafeBufferPointer<UInt8>, partition: Int32, offset: Int64,
        into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var position = 0
        for byte in topic {
            buffer[position] = byte
            position += 1
        }
        buffer[position] = UInt8(ascii: ":")
        position += 1
        position += DecimalText.write(Int64(partition), into: buffer, at: position)
        buffer[position] = UInt8(ascii: ":")
        position += 1
        position += DecimalText.write(offset, into: buffer, at: position)
        return position
    }
}

/// A record pushgate writes: a format's payload or a dead letter.
///
/// Its value, and for a translator's output its key and the header values it takes from the input, are
/// read from one buffer (``storage``) that the outputs of one input share: each output holds one
/// reference, which is retained when the output is made and released when it is gone. A reference per
/// part (the key's array, the input's value for the id, ...) cost that twice per part and output.
public struct OutputRecord: Sendable, Equatable {
    /// The topic to write to.
    public var topic: String
    // The optional properties are spelled `Optional<T>`, not `T?`: a `var` of type `T?` starts out `nil`
    // before the initializer runs, so the initializer assigns it (destroying the `nil`) instead of
    // initializing it, and the optimizer then copied the whole record on its way out of the initializer
    // (a retain and a release of every reference it holds, per output).

    /// The output format, `nil` for a dead letter.
    public var format: Optional<OutputFormat>
    /// The bytes the value is part of, and, for a translator's output, its key and the header values
    /// ``outputHeaders`` names by their place in it.
    @usableFromInline
    var storage: [UInt8]
    /// Where the value is in ``storage``.
    @usableFromInline
    var valueRange: BufferRange
    /// Where the key is in ``storage``, for a translator's output with a key.
    @usableFromInline
    var keyRange: Optional<BufferRange>
    /// The key of any other record (`nil`: none, or it is in ``storage``).
    @usableFromInline
    var ownKey: Optional<[UInt8]>
    /// Whether the value is written as null, not empty: the dead letter of a tombstone (an input with a
    /// null value). `value` is then empty.
    public var valueIsNull = false
    /// The headers: a list, or an output's headers kept as what they are made of (written out when read).
    /// Two stored properties rather than an enum with a payload, which is copied into the enum (a retain
    /// and a release of each reference the headers hold) where a stored property is initialized in place.
    @usableFromInline
    var outputHeaders: OutputHeaders
    /// The headers as a list, when they are one (`outputHeaders` is then ``OutputHeaders/none``).
    @usableFromInline
    var headerList: Optional<[RecordHeader]>

    /// Creates an output record whose value is `value` (shared, not copied).
    public init(topic: String, format: OutputFormat?, key: [UInt8]?, value: [UInt8], headers: [RecordHeader]) {
        self.topic = topic
        self.format = format
        self.storage = value
        self.valueRange = BufferRange(value.indices)
        self.keyRange = nil
        self.ownKey = key
        self.outputHeaders = .none
        self.headerList = headers
    }

    /// Creates an output record whose value is a copy of `value`.
    public init(
        topic: String, format: OutputFormat?, key: [UInt8]?, value: ArraySlice<UInt8>, headers: [RecordHeader]
    ) {
        self.init(topic: topic, format: format, key: key, value: Array(value), headers: headers)
    }

    /// Creates an output of `headers.format` from `storage`, the buffer the outputs of one input share:
    /// its value is at `value`, its key at `key` (none when `nil`), and the headers' values that are
    /// places are in `storage` too (no list is made).
    @inlinable
    public init(topic: String, storage: [UInt8], value: BufferRange, key: BufferRange?, headers: OutputHeaders) {
        self.topic = topic
        self.format = headers.format
        self.storage = storage
        self.valueRange = value
        self.keyRange = key
        self.ownKey = nil
        self.outputHeaders = headers
        self.headerList = nil
    }

    /// The key, the input record's key unchanged.
    public var key: [UInt8]? {
        get {
            if let keyRange { return Array(storage[keyRange.range]) }
            return ownKey
        }
        set {
            ownKey = newValue
            keyRange = nil
        }
    }

    /// The value: the format's JSON, or the input bytes unchanged for a dead letter (part of a buffer the
    /// outputs of one input share).
    public var value: ArraySlice<UInt8> {
        get { storage[valueRange.range] }
        set {
            // What is read from the buffer (the key, the headers not yet made a list) is taken out of it
            // first: it is replaced. Headers already a list (set, or a dead letter's) are kept as they are.
            if keyRange != nil { (ownKey, keyRange) = (key, nil) }
            if headerList == nil { headers = outputHeaders.list(in: storage) }
            storage = Array(newValue)
            valueRange = BufferRange(storage.indices)
        }
    }

    /// The headers in the order of SPEC section 1 (outputs) or section 6 (dead letters). Reading them
    /// from an output makes the list; ``headerCount`` and ``forEachHeader(_:)`` read them without one.
    public var headers: [RecordHeader] {
        get {
            headerList ?? outputHeaders.list(in: storage)
        }
        set {
            headerList = newValue
            outputHeaders = .none
        }
    }

    /// How many headers the record has.
    public var headerCount: Int {
        headerList?.count ?? outputHeaders.count
    }

    /// Calls `body` with each header in order: the name's UTF-8 bytes and the value's bytes (`nil` for a
    /// null value), both valid only during the call.
    public func forEachHeader(_ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) -> Void) {
        if let headerList {
            headerList.withUnsafeBufferPointer { headers in
                for index in headers.indices { headers[index].withBytes(body) }
            }
        } else {
            storage.withUnsafeBytes { bytes in outputHeaders.forEach(in: OutputHeaders.Bytes(bytes), body) }
        }
    }

    /// Calls `body` with the key's bytes (`nil` for none) and the value's, borrowed in place. Inlinable, so
    /// that the producer's call is made for its `Result` (a generic call costs hundreds of instructions).
    @inlinable
    public func withKeyAndValue<Result>(
        _ body: (_ key: UnsafeRawBufferPointer?, _ value: UnsafeRawBufferPointer) -> Result
    ) -> Result {
        storage.withUnsafeBytes { raw in
            let value = UnsafeRawBufferPointer(rebasing: raw[valueRange.range])
            if let keyRange { return body(UnsafeRawBufferPointer(rebasing: raw[keyRange.range]), value) }
            // `ownKey!` borrows the stored key (binding it, `if let`, would copy it), and no `Result?` is
            // made (optional chaining would look up the metadata of `Optional<Result>` at run time).
            guard ownKey != nil else { return body(nil, value) }
            return ownKey!.withUnsafeBytes { body($0, value) }
        }
    }

    /// How many bytes the value has.
    public var valueCount: Int { Int(valueRange.count) }

    /// Whether this record is a dead letter.
    public var isDeadLetter: Bool { format == nil }

    /// Records are equal when their topics, formats, keys, values (null or not) and headers (as lists) are.
    public static func == (lhs: OutputRecord, rhs: OutputRecord) -> Bool {
        lhs.topic == rhs.topic && lhs.format == rhs.format && lhs.key == rhs.key && lhs.value == rhs.value
            && lhs.valueIsNull == rhs.valueIsNull && lhs.headers == rhs.headers
    }
}
