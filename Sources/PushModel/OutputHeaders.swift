/// The headers of an output record (SPEC section 1), kept as what they are made of rather than as a list:
/// the input's forwarded headers, places in the record's buffer (``OutputRecord``: the id and other texts
/// of the payload, decoded, are copied there with the values), flags and numbers. Numbers and the source
/// reference are written out only while the headers are read (``forEach(in:_:)`` writes them on the
/// stack), so an output's headers cost no allocation and no reference of their own but the forwarded list.
public struct OutputHeaders: Sendable {
    // `Optional<T>`, not `T?`, for the optional properties: see ``OutputRecord``.

    /// The bytes of a record's buffer, which the headers' ranges are of.
    public struct Bytes {
        let raw: UnsafeRawBufferPointer

        /// The bytes of a record's buffer.
        public init(_ raw: UnsafeRawBufferPointer) {
            self.raw = raw
        }

        /// The bytes of `place`.
        subscript(place: BufferRange) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: raw[place.range])
        }
    }

    /// The input record's headers that are forwarded, in order (the input's own array when all are).
    public var forwarded: [RecordHeader]
    /// The input record's topic: `pushgate-source` is `TOPIC:PARTITION:OFFSET`.
    public var sourceTopic: String
    /// The input record's partition.
    public var sourcePartition: Int32
    /// The input record's offset.
    public var sourceOffset: Int64
    /// `pushgate-id`: where the payload's id, as decoded UTF-8, is in the record's buffer; `nil` when the
    /// payload has none, and then the id is the source reference.
    public var id: Optional<BufferRange>
    /// `pushgate-format`.
    public var format: OutputFormat
    /// Whether `pushgate-dry-run: true` is written.
    public var dryRun: Bool
    /// `pushgate-warnings`, the JSON array of the warnings; `nil` when there are none.
    public var warnings: Optional<[UInt8]>
    /// The `apns-*` headers, for formats delivered by APNs; `nil` for the others.
    public var apns: Optional<APNsHeaders>
    /// The `webpush-*` headers, for `webpush`; `nil` for the others.
    public var webpush: Optional<WebPushHeaders>

    /// Creates the headers of one output.
    @inlinable
    public init(
        forwarded: [RecordHeader], sourceTopic: String, sourcePartition: Int32, sourceOffset: Int64,
        id: BufferRange?, format: OutputFormat, dryRun: Bool, warnings: [UInt8]?, apns: APNsHeaders?,
        webpush: WebPushHeaders? = nil
    ) {
        self.forwarded = forwarded
        self.sourceTopic = sourceTopic
        self.sourcePartition = sourcePartition
        self.sourceOffset = sourceOffset
        self.id = id
        self.format = format
        self.dryRun = dryRun
        self.warnings = warnings
        self.apns = apns
        self.webpush = webpush
    }

    /// What a record whose headers are a list holds in place of an output's headers (nothing is read from it).
    @usableFromInline
    static let none = OutputHeaders(
        forwarded: [], sourceTopic: "", sourcePartition: 0, sourceOffset: 0, id: nil, format: .apns, dryRun: false,
        warnings: nil, apns: nil)

    /// How many headers there are.
    public var count: Int {
        // `apns` and `webpush` hold plain values and places only: binding them copies nothing counted.
        var count = forwarded.count + 3 + (dryRun ? 1 : 0) + (warnings == nil ? 0 : 1)
        if let apns { count += 3 + (apns.collapseID == nil ? 0 : 1) + (apns.channelID == nil ? 0 : 1) }
        if webpush != nil { count += webpush?.topic == nil ? 2 : 3 }
        return count
    }

    /// Calls `body` with each header in order: the name's UTF-8 bytes and the value's bytes (`nil` for a
    /// null value), both valid only during the call. `bytes` is the record's buffer, which the ranges are of.
    public func forEach(
        in bytes: Bytes, _ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) -> Void
    ) {
        // Read in place: iterating the array would copy each header (retaining its name and value).
        forwarded.withUnsafeBufferPointer { forwarded in
            for index in forwarded.indices { forwarded[index].withBytes(body) }
        }
        // What holds a reference (the source topic, the warnings) is borrowed in place, through optional
        // chaining on the stored properties: binding it (`if let`), or capturing `self` in a closure, would
        // copy it and retain and release it, for every record produced. `apns` and `webpush` hold plain
        // values and places only, and are bound. The closures below capture only raw pointers and `body`.
        let format = Self.bytes(self.format.headerValue)
        func writeIdentity(id: UnsafeRawBufferPointer?) {
            Self.withSourceReference(topic: sourceTopic, partition: sourcePartition, offset: sourceOffset) {
                source in
                body(Self.bytes("pushgate-id"), id ?? source)
                body(Self.bytes("pushgate-format"), format)
                body(Self.bytes("pushgate-source"), source)
            }
        }
        writeIdentity(id: id.map { bytes[$0] })
        if dryRun { body(Self.bytes("pushgate-dry-run"), Self.bytes("true")) }
        _ = warnings?.withUnsafeBytes { body(Self.bytes("pushgate-warnings"), $0) }
        if let ttl = webpush?.ttl, let urgency = webpush?.urgency {
            DecimalText.withBytes(of: ttl) { body(Self.bytes("webpush-ttl"), $0) }
            body(Self.bytes("webpush-urgency"), Self.bytes(urgency.headerValue))
            if let topic = webpush?.topic { body(Self.bytes("webpush-topic"), bytes[topic]) }
        }
        guard let apns else { return }
        body(Self.bytes("apns-push-type"), Self.bytes(apns.pushType.headerValue))
        body(Self.bytes("apns-priority"), Self.bytes(apns.highPriority ? "10" : "5"))
        DecimalText.withBytes(of: apns.expiration) { body(Self.bytes("apns-expiration"), $0) }
        if let collapseID = apns.collapseID { body(Self.bytes("apns-collapse-id"), bytes[collapseID]) }
        if let channelID = apns.channelID { body(Self.bytes("apns-channel-id"), bytes[channelID]) }
    }

    /// The headers as a list (each value copied into an array of its own); `storage` is the record's buffer.
    public func list(in storage: [UInt8]) -> [RecordHeader] {
        var headers: [RecordHeader] = []
        headers.reserveCapacity(count)
        storage.withUnsafeBytes { raw in
            forEach(in: Bytes(raw)) { name, value in
                headers.append(
                    RecordHeader(
                        name: String(decoding: name, as: UTF8.self),
                        value: value.map { Array($0.bindMemory(to: UInt8.self)) }
                    ))
            }
        }
        return headers
    }

    /// Calls `body` with `TOPIC:PARTITION:OFFSET`, written on the stack.
    private static func withSourceReference(
        topic: String, partition: Int32, offset: Int64, _ body: (UnsafeRawBufferPointer) -> Void
    ) {
        func write(_ topicBytes: UnsafeBufferPointer<UInt8>) {
            let capacity = SourceReference.capacity(topicLength: topicBytes.count)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
                let count = SourceReference.write(
                    topic: topicBytes, partition: partition, offset: offset, into: buffer)
                body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<count])))
            }
        }
        // Borrowed in place: a `var` copy of the topic would be retained and released per record.
        let done: Void? = topic.utf8.withContiguousStorageIfAvailable(write)
        if done == nil { Array(topic.utf8).withUnsafeBufferPointer(write) }
    }

    /// The bytes of a compile-time string (static memory: valid for the whole run).
    private static func bytes(_ text: StaticString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }
}

/// The `apns-*` headers of an output delivered by APNs.
public struct APNsHeaders: Sendable {
    // `Optional<T>`, not `T?`: see ``OutputRecord``.

    /// `apns-push-type`.
    public var pushType: APNsPushType
    /// `apns-priority: 10` (else `5`).
    public var highPriority: Bool
    /// `apns-expiration`, in seconds since the epoch (`0`: none).
    public var expiration: Int64
    /// Where `apns-collapse-id`, as decoded UTF-8, is in the record's buffer, when given.
    public var collapseID: Optional<BufferRange>
    /// Where `apns-channel-id` (a Live Activity broadcast, SPEC 5.1.1), as decoded UTF-8, is in the record's
    /// buffer, when given.
    public var channelID: Optional<BufferRange>

    /// Creates the `apns-*` headers.
    @inlinable
    public init(
        pushType: APNsPushType, highPriority: Bool, expiration: Int64, collapseID: BufferRange?,
        channelID: BufferRange? = nil
    ) {
        self.pushType = pushType
        self.highPriority = highPriority
        self.expiration = expiration
        self.collapseID = collapseID
        self.channelID = channelID
    }
}

extension OutputRecord {
    /// Changes the `apns-*` headers of an output that has them (the `apns` output of a Live Activity push
    /// has its own, SPEC 5.1.1); a record without them, or whose headers are a list, is left as it is.
    public mutating func updateAPNsHeaders(_ body: (inout APNsHeaders) -> Void) {
        guard headerList == nil, var apns = outputHeaders.apns else { return }
        body(&apns)
        outputHeaders.apns = apns
    }
}

/// The `apns-push-type` of an output.
public enum APNsPushType: Sendable, Equatable {
    /// `alert`: something visible or audible.
    case alert
    /// `background`: nothing visible or audible (content-available only).
    case background
    /// `liveactivity`: an ActivityKit Live Activity push (SPEC 5.1.1).
    case liveActivity

    /// The header value (static memory).
    var headerValue: StaticString {
        switch self {
        case .alert: "alert"
        case .background: "background"
        case .liveActivity: "liveactivity"
        }
    }
}

/// The `webpush-*` headers of a `webpush` output (SPEC 5.6), which the sender turns into RFC 8030's
/// `TTL`, `Urgency` and `Topic`.
public struct WebPushHeaders: Sendable {
    // `Optional<T>`, not `T?`: see ``OutputRecord``.

    /// `webpush-ttl`, in seconds.
    public var ttl: Int64
    /// `webpush-urgency`.
    public var urgency: WebOptions.Urgency
    /// Where `webpush-topic`, as decoded UTF-8, is in the record's buffer, when given.
    public var topic: Optional<BufferRange>

    /// Creates the `webpush-*` headers.
    @inlinable
    public init(ttl: Int64, urgency: WebOptions.Urgency, topic: BufferRange?) {
        self.ttl = ttl
        self.urgency = urgency
        self.topic = topic
    }
}

extension WebOptions.Urgency {
    /// The value as `webpush-urgency` writes it (from static memory).
    var headerValue: StaticString {
        switch self {
        case .veryLow: "very-low"
        case .low: "low"
        case .normal: "normal"
        case .high: "high"
        }
    }
}

extension OutputFormat {
    /// The format's name as `pushgate-format` writes it, from static memory: the same text as its raw
    /// value (`OutputFormatCoverageTests` checks that they agree), which is a `String`, where the headers
    /// of every record written need bytes that are never copied, counted or freed. Dead letters take
    /// their `pushgate-format` from it too.
    public var headerValue: StaticString {
        switch self {
        case .apns: "apns"
        case .adobeCarousel: "adobe-carousel"
        case .fbCard: "fb-card"
        case .androidExpandable: "android-expandable"
        case .fcm: "fcm"
        case .webpush: "webpush"
        }
    }
}

extension RecordHeader {
    /// Calls `body` with the name's UTF-8 bytes and the value's bytes (`nil` for null), borrowed for the call.
    func withBytes(_ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) -> Void) {
        // Borrowed in place (a `var` copy of the name would be retained and released per header).
        func withValue(_ nameBytes: UnsafeRawBufferPointer) {
            guard let value else { return body(nameBytes, nil) }
            value.withUnsafeBytes { body(nameBytes, $0) }
        }
        let done: Void? = name.utf8.withContiguousStorageIfAvailable { withValue(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(name.utf8).withUnsafeBytes { withValue($0) } }
    }
}

/// Decimal text of integers, written without allocating: the one place pushgate turns an integer into
/// digits (headers, record fields, JSON numbers it makes).
public enum DecimalText {
    /// Calls `body` with the decimal digits of `value`'s magnitude (no sign), written on the stack.
    @inlinable
    public static func withDigits<Result>(of value: Int64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 20 digits, written back to front
        return withUnsafeMutableBytes(of: &digits) { scratch in
            var magnitude = value.magnitude
            var start = scratch.count
            repeat {
                start -= 1
                scratch[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            return body(UnsafeRawBufferPointer(rebasing: scratch[start...]))
        }
    }

    /// Appends the decimal text of `value`, with `-` when negative.
    @inlinable
    public static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        withDigits(of: value) { bytes.append(contentsOf: $0) }
    }

    /// Writes the decimal digits of `value` (with `-` when negative) into `buffer` at `position`, which
    /// must have room for 20 bytes; the number of bytes written. The digits go straight to their place,
    /// last first, once their number is known: this runs for every header number of every record written.
    static func write(_ value: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>, at position: Int) -> Int {
        var magnitude = value.magnitude
        var digits = 1
        var power: UInt64 = 10
        // At most 19 digits (Int64.min's magnitude): 10^19 still fits in UInt64, so `power` never overflows.
        while digits < 19 && magnitude >= power {
            digits += 1
            power &*= 10
        }
        let count = digits + (value < 0 ? 1 : 0)
        if value < 0 { buffer[position] = UInt8(ascii: "-") }
        var index = position + count
        repeat {
            index -= 1
            buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return count
    }

    /// Calls `body` with the decimal text of `value`, written on the stack.
    static func withBytes(of value: Int64, _ body: (UnsafeRawBufferPointer) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            let count = write(value, into: buffer, at: 0)
            body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<count])))
        }
    }
}
