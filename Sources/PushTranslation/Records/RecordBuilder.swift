import PushModel

/// Builds output records and dead letters with the headers of SPEC sections 1 and 6.
///
/// A builder borrows the input record and the configuration for the one translation it serves (see
/// ``with(record:configuration:_:)``): a copy of each in every builder retained and released every
/// reference they hold, once per input. The pointers are valid only inside `with`'s closure, which is
/// the builder's whole life.
struct RecordBuilder {
    let record: UnsafePointer<InputRecord>
    let configuration: UnsafePointer<TranslatorConfiguration>
    /// The input record's key, borrowed (`nil`: it has none).
    let key: UnsafeBufferPointer<UInt8>?

    /// The input headers that are forwarded: all but `pushgate-*`, `apns-*`, `webpush-*` and `__connect.errors.*`
    /// (names compared ASCII case-insensitively). The input's own array when all are forwarded.
    let forwardedHeaders: [RecordHeader]

    private init(
        record: UnsafePointer<InputRecord>, configuration: UnsafePointer<TranslatorConfiguration>,
        key: UnsafeBufferPointer<UInt8>?
    ) {
        self.record = record
        self.configuration = configuration
        self.key = key
        let headers = record.pointee.headers
        self.forwardedHeaders =
            headers.contains { Self.isOwnHeader($0.name) } ? headers.filter { !Self.isOwnHeader($0.name) } : headers
    }

    /// Calls `body` with a builder for `record`, which must not escape the call.
    static func with<Result>(
        record: borrowing InputRecord, configuration: borrowing TranslatorConfiguration,
        _ body: (RecordBuilder) -> Result
    ) -> Result {
        withUnsafePointer(to: record) { recordPointer in
            withUnsafePointer(to: configuration) { configuration in
                // The key's bytes borrowed from the record itself (through the pointer they would be a copy).
                guard record.key != nil else {
                    return body(RecordBuilder(record: recordPointer, configuration: configuration, key: nil))
                }
                return record.key!.withUnsafeBufferPointer { key in
                    body(RecordBuilder(record: recordPointer, configuration: configuration, key: key))
                }
            }
        }
    }

    /// `TOPIC:PARTITION:OFFSET` of the input record.
    var sourceReference: String { record.pointee.sourceReference }

    /// What the outputs of one input share in their headers (SPEC section 1), but the texts of the payload
    /// (`pushgate-id`, `apns-collapse-id`, `apns-channel-id`, `webpush-topic`), which are copied into the
    /// outputs' shared buffer (``appendSharedParts(_:_:_:to:from:)``): plain values, which cost nothing to copy.
    struct SharedHeaders {
        var dryRun: Bool
        /// The `apns-*` headers, when a format delivered by APNs is routed.
        var apns: APNs?
        /// The `webpush-*` headers, when `webpush` is routed.
        var webpush: WebPush?

        /// The `apns-*` values but the ids, from which each output's ``APNsHeaders`` are made.
        struct APNs {
            var pushType: APNsPushType
            var highPriority: Bool
            var expiration: Int64
        }

        /// The `webpush-*` values but the topic.
        struct WebPush {
            var ttl: Int64
            var urgency: WebOptions.Urgency
        }
    }

    /// The header values shared by the outputs of `notification`. Made in one initialization (not filled in
    /// afterwards), which the optimizer keeps from copying.
    func sharedHeaders(notification: PushNotification, timestampMs: Int64) -> SharedHeaders {
        var apns: SharedHeaders.APNs?
        if notification.formats.contains(where: \.isDeliveredByAPNs) {
            let background = APSWriter.isBackground(notification)
            apns = SharedHeaders.APNs(
                pushType: background ? .background : .alert,
                highPriority: !background && notification.message.priority == .high,
                expiration: Self.expiration(notification, timestampMs))
        }
        var webpush: SharedHeaders.WebPush?
        if notification.formats.contains(.webpush) {
            let urgency = notification.web?.urgency ?? (notification.message.priority == .high ? .high : .normal)
            webpush = SharedHeaders.WebPush(ttl: notification.message.ttlSeconds, urgency: urgency)
        }
        return SharedHeaders(dryRun: notification.dryRun, apns: apns, webpush: webpush)
    }

    /// Gives `record`, the `apns` output of a Live Activity push, its own `apns-*` headers (SPEC 5.1.1):
    /// `apns-push-type: liveactivity`, priority 10 only for `high` (Apple budgets them) whatever the
    /// alert, and `apns-channel-id` for a broadcast. Out of line: most payloads have no Live Activity.
    @inline(never)
    func setLiveActivityHeaders(
        of record: inout OutputRecord, _ notification: PushNotification, places: SharedPlaces
    ) {
        let channelID = places.channelID
        let highPriority = notification.message.priority == .high
        record.updateAPNsHeaders { apns in
            apns = APNsHeaders(
                pushType: .liveActivity, highPriority: highPriority, expiration: apns.expiration,
                collapseID: apns.collapseID, channelID: channelID)
        }
    }

    /// Appends the decimal digits of `value`, with a `-` when negative (no intermediate string).
    static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) { DecimalText.append(value, to: &bytes) }

    /// Whether `name` is one of pushgate's own header names (`pushgate-*`, `apns-*`, `webpush-*`,
    /// `__connect.errors.*`, ASCII letters in any case), which an input record's headers do not pass on.
    /// The first byte picks the one prefix to compare, on the name's bytes in place.
    static func isOwnHeader(_ name: String) -> Bool {
        // The bytes in place (no copy of the string, which would retain and release it), for the native
        // strings header names are; a bridged one is made contiguous first.
        if let own = name.utf8.withContiguousStorageIfAvailable(isOwnHeader) { return own }
        var name = name
        return name.withUTF8(isOwnHeader)
    }

    /// ``isOwnHeader(_:)`` of a name's UTF-8 bytes.
    private static func isOwnHeader(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        return switch Self.lowercased(first) {
        case UInt8(ascii: "p"): hasPrefixIgnoringASCIICase(bytes, "pushgate-")
        case UInt8(ascii: "a"): hasPrefixIgnoringASCIICase(bytes, "apns-")
        case UInt8(ascii: "w"): hasPrefixIgnoringASCIICase(bytes, "webpush-")
        case UInt8(ascii: "_"): hasPrefixIgnoringASCIICase(bytes, "__connect.errors.")
        default: false
        }
    }

    /// `byte` with an ASCII upper-case letter made lower-case.
    @inline(__always)
    private static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    /// Whether `name` starts with the lower-case ASCII `prefix`, comparing ASCII letters case-insensitively.
    private static func hasPrefixIgnoringASCIICase(_ name: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard name.count >= count else { return false }
        for offset in 0..<count where lowercased(name[offset]) != prefix.utf8Start[offset] { return false }
        return true
    }

    /// An output record, its headers kept as what they are made of (no list of them is made): its value
    /// is `buffer[value]`, its key and header texts are where `places` says in `buffer`, the buffer the
    /// outputs of the input share (``appendSharedParts(_:_:_:to:from:)``). `warnings` is `pushgate-warnings`: the
    /// format's warnings as ``Swift/Array/encodedJSON()`` writes them, `nil` when there are none.
    func output(
        format: OutputFormat, value: BufferRange, buffer: [UInt8], places: SharedPlaces,
        headers shared: SharedHeaders, warnings: [UInt8]?
    ) -> OutputRecord {
        OutputRecord(
            topic: configuration.pointee.topic(for: format), storage: buffer, value: value, key: places.key,
            headers: OutputHeaders(
                forwarded: forwardedHeaders, sourceTopic: record.pointee.topic,
                sourcePartition: record.pointee.partition, sourceOffset: record.pointee.offset,
                id: places.id, format: format, dryRun: shared.dryRun, warnings: warnings,
                apns: format.isDeliveredByAPNs ? apnsHeaders(shared, places) : nil,
                webpush: format == .webpush ? webpushHeaders(shared, places) : nil))
    }

    /// The `webpush-*` headers of a `webpush` output.
    private func webpushHeaders(_ shared: SharedHeaders, _ places: SharedPlaces) -> WebPushHeaders? {
        guard let webpush = shared.webpush else { return nil }
        return WebPushHeaders(ttl: webpush.ttl, urgency: webpush.urgency, topic: places.webpushTopic)
    }

    /// The `apns-*` headers of an output delivered by APNs.
    private func apnsHeaders(_ shared: SharedHeaders, _ places: SharedPlaces) -> APNsHeaders? {
        guard let apns = shared.apns else { return nil }
        return APNsHeaders(
            pushType: apns.pushType, highPriority: apns.highPriority, expiration: apns.expiration,
            collapseID: places.collapseID)
    }

    /// floor(timestamp ms / 1000) + ttl, or 0 when ttl is 0.
    private static func expiration(_ notification: PushNotification, _ timestampMs: Int64) -> Int64 {
        let ttl = notification.message.ttlSeconds
        guard ttl != 0 else { return 0 }
        return seconds(ofMilliseconds: timestampMs) + ttl
    }

    /// floor(`milliseconds` / 1000): a record's time in seconds since the epoch.
    static func seconds(ofMilliseconds milliseconds: Int64) -> Int64 {
        // Floor division that cannot overflow, even for Int64.min.
        let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// The parse-stage dead letter and its report.
    func parseFailure(_ diagnostic: Diagnostic) -> Translation {
        Translation(
            records: [deadLetter(stage: .parse, format: nil, errors: [diagnostic], id: nil)],
            deadLetters: [report(stage: .parse, format: nil, errors: [diagnostic], id: nil)])
    }

    func deadLetter(stage: Stage, format: OutputFormat?, errors: [Diagnostic], id: String?) -> OutputRecord {
        errors.withEncodedJSON { errorsJSON in
            deadLetter(stage: stage, format: format, errors: errors, errorsJSON: errorsJSON, id: id)
        }
    }

    /// The dead letter whose `pushgate-errors` is `errorsJSON`.
    private func deadLetter(
        stage: Stage, format: OutputFormat?, errors: [Diagnostic], errorsJSON: UnsafeBufferPointer<UInt8>, id: String?
    ) -> OutputRecord {
        // Every header value in one buffer, each a slice of it: room for all of them at once (the exception
        // message is at most the first error's path and message, which may only be cut shorter).
        var text: [UInt8] = []
        let first = errors.first
        text.reserveCapacity(
            record.pointee.topic.utf8.count + 2 + 2 * 20 + (id?.utf8.count ?? 0) + errorsJSON.count
                + (first.map { $0.code.rawValue.utf8.count + $0.path.utf8.count + 2 + $0.message.utf8.count } ?? 0))
        let topic = Self.part(of: &text) { $0.append(contentsOf: record.pointee.topic.utf8) }
        text.append(UInt8(ascii: ":"))
        let partition = Self.part(of: &text) { Self.appendDecimal(Int64(record.pointee.partition), to: &$0) }
        text.append(UInt8(ascii: ":"))
        let offset = Self.part(of: &text) { Self.appendDecimal(record.pointee.offset, to: &$0) }
        var firstError: (code: Range<Int>, message: Range<Int>)?
        if let first {
            firstError = (
                Self.part(of: &text) { $0.append(contentsOf: first.code.rawValue.utf8) },
                Self.part(of: &text) { first.appendExceptionMessage(to: &$0) }
            )
        }
        // Without an id, pushgate-id is TOPIC:PARTITION:OFFSET, which the buffer holds already.
        var pushgateID = topic.lowerBound..<offset.upperBound
        if let id { pushgateID = Self.part(of: &text) { $0.append(contentsOf: id.utf8) } }
        let errorsValue = Self.part(of: &text) { $0.append(contentsOf: errorsJSON) }
        var headers = forwardedHeaders
        headers.reserveCapacity(forwardedHeaders.count + 9)
        headers.append(RecordHeader(name: "__connect.errors.topic", bytes: text[topic]))
        headers.append(RecordHeader(name: "__connect.errors.partition", bytes: text[partition]))
        headers.append(RecordHeader(name: "__connect.errors.offset", bytes: text[offset]))
        headers.append(RecordHeader(name: "__connect.errors.stage", value: HeaderText.stage(stage)))
        if let (code, message) = firstError {
            headers.append(RecordHeader(name: "__connect.errors.exception.class.name", bytes: text[code]))
            headers.append(RecordHeader(name: "__connect.errors.exception.message", bytes: text[message]))
        }
        headers.append(RecordHeader(name: "pushgate-id", bytes: text[pushgateID]))
        if let format { headers.append(RecordHeader(name: "pushgate-format", value: HeaderText.format(format))) }
        headers.append(RecordHeader(name: "pushgate-errors", bytes: text[errorsValue]))
        var deadLetter = OutputRecord(
            topic: configuration.pointee.deadLetterTopic, format: nil, key: record.pointee.key,
            value: record.pointee.value, headers: headers)
        deadLetter.valueIsNull = record.pointee.valueIsNull
        return deadLetter
    }

    /// Where `append` wrote in `text`. (A function of its own: a local one capturing `text` made each
    /// access to it a dynamic exclusivity check.)
    @inline(__always)
    private static func part(of text: inout [UInt8], _ append: (inout [UInt8]) -> Void) -> Range<Int> {
        let start = text.count
        append(&text)
        return start..<text.count
    }

    /// The report of the dead letter ``deadLetter(stage:format:errors:id:)`` builds from the same arguments.
    func report(stage: Stage, format: OutputFormat?, errors: [Diagnostic], id: String?) -> DeadLetterReport {
        let source = sourceReference
        return DeadLetterReport(stage: stage, format: format, errors: errors, id: id ?? source, source: source)
    }
}

/// Header values pushgate writes often, encoded once.
enum HeaderText {
    static let parse = Array("parse".utf8)
    static let validate = Array("validate".utf8)
    static let emit = Array("emit".utf8)

    /// `__connect.errors.stage` of each stage.
    static func stage(_ stage: Stage) -> [UInt8] {
        switch stage {
        case .parse: parse
        case .validate: validate
        case .emit: emit
        }
    }

    /// `pushgate-format` of each format: the bytes of ``OutputFormat/headerValue``, which outputs write,
    /// copied once into arrays that every dead letter shares.
    private static let formats: PerFormat<[UInt8]> = {
        var formats = PerFormat<[UInt8]>(repeating: [])
        for format in OutputFormat.allCases {
            let name = format.headerValue
            formats[format] = Array(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
        return formats
    }()

    /// `pushgate-format` of `format`.
    static func format(_ format: OutputFormat) -> [UInt8] { formats[format] }
}
