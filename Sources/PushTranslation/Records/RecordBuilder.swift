import PushModel

/// Builds output records and dead letters with the headers of SPEC sections 1 and 6.
struct RecordBuilder {
    let record: InputRecord
    let configuration: TranslatorConfiguration

    /// The input headers that are forwarded: all but `pushgate-*`, `apns-*` and `__connect.errors.*`
    /// (names compared ASCII case-insensitively). The input's own array when all are forwarded.
    let forwardedHeaders: [RecordHeader]

    init(record: InputRecord, configuration: TranslatorConfiguration) {
        self.record = record
        self.configuration = configuration
        self.forwardedHeaders =
            record.headers.contains { Self.isOwnHeader($0.name) }
            ? record.headers.filter { !Self.isOwnHeader($0.name) } : record.headers
    }

    /// `TOPIC:PARTITION:OFFSET` of the input record.
    var sourceReference: String { record.sourceReference }

    /// The header values every output of one input shares, made once, in one buffer: each is a slice
    /// of it (one allocation for all of them).
    struct OutputHeaders {
        var id: ArraySlice<UInt8>
        var source: ArraySlice<UInt8>
        var dryRun: Bool
        /// `apns-push-type`, `apns-priority`, `apns-expiration` and `apns-collapse-id` (`nil` when not set).
        var pushType: ArraySlice<UInt8>
        var priority: ArraySlice<UInt8>
        var expiration: ArraySlice<UInt8>
        var collapseID: ArraySlice<UInt8>?
    }

    /// The header values shared by the outputs of `notification`; `id` and the collapse id are decoded
    /// from `document` straight into the buffer.
    func outputHeaders(notification: PushNotification, document: JSONDocument, timestampMs: Int64) -> OutputHeaders {
        let id = notification.id
        let collapseID = notification.ios.collapseID
        var text: [UInt8] = []
        // Raw lengths: a decoded text is never longer than its escaped form.
        text.reserveCapacity(record.topic.utf8.count + 48 + (id?.length ?? 0) + (collapseID?.length ?? 0))
        text.append(contentsOf: record.topic.utf8)
        text.append(UInt8(ascii: ":"))
        appendDecimal(Int64(record.partition), to: &text)
        text.append(UInt8(ascii: ":"))
        appendDecimal(record.offset, to: &text)
        let sourceEnd = text.count
        if let id { document.withDecodedBytes(id) { text.append(contentsOf: $0) } }
        let idEnd = text.count
        if notification.formats.contains(where: \.isDeliveredByAPNs) {
            appendDecimal(Self.expiration(notification, timestampMs), to: &text)
        }
        let expirationEnd = text.count
        if let collapseID { document.withDecodedBytes(collapseID) { text.append(contentsOf: $0) } }
        let background = APSWriter.isBackground(notification)
        let high = !background && notification.message.priority == .high
        return OutputHeaders(
            id: id == nil ? text[..<sourceEnd] : text[sourceEnd..<idEnd], source: text[..<sourceEnd],
            dryRun: notification.dryRun,
            pushType: background ? HeaderText.background[...] : HeaderText.alert[...],
            priority: high ? HeaderText.ten[...] : HeaderText.five[...],
            expiration: text[idEnd..<expirationEnd], collapseID: collapseID == nil ? nil : text[expirationEnd...])
    }

    /// Appends the decimal digits of `value`, with a `-` when negative (no intermediate string).
    private func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        Self.appendDecimal(value, to: &bytes)
    }

    /// Appends the decimal digits of `value`, with a `-` when negative (no intermediate string).
    static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        } while divisor > 0
    }

    static func isOwnHeader(_ name: String) -> Bool {
        hasPrefixIgnoringASCIICase(name, "pushgate-") || hasPrefixIgnoringASCIICase(name, "apns-")
            || hasPrefixIgnoringASCIICase(name, "__connect.errors.")
    }

    /// Whether `name` starts with the lower-case ASCII `prefix`, comparing ASCII letters case-insensitively.
    private static func hasPrefixIgnoringASCIICase(_ name: String, _ prefix: StaticString) -> Bool {
        let utf8 = name.utf8
        guard utf8.count >= prefix.utf8CodeUnitCount else { return false }
        var position = utf8.startIndex
        for offset in 0..<prefix.utf8CodeUnitCount {
            var byte = utf8[position]
            if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
            if byte != prefix.utf8Start[offset] { return false }
            position = utf8.index(after: position)
        }
        return true
    }

    /// An output record: the forwarded headers, then those of SPEC section 1, written straight into an
    /// array of exactly their number (one allocation, no growth).
    func output(format: OutputFormat, value: [UInt8], headers shared: OutputHeaders, warnings: [Diagnostic])
        -> OutputRecord
    {
        let warningsJSON = warnings.isEmpty ? nil : warnings.encodedJSON()
        let apns = format.isDeliveredByAPNs
        let count =
            forwardedHeaders.count + 3 + (shared.dryRun ? 1 : 0) + (warningsJSON == nil ? 0 : 1)
            + (apns ? (shared.collapseID == nil ? 3 : 4) : 0)
        let headers = [RecordHeader](unsafeUninitializedCapacity: count) { buffer, initialized in
            var position = 0
            func put(_ header: RecordHeader) {
                buffer.initializeElement(at: position, to: header)
                position += 1
            }
            for header in forwardedHeaders { put(header) }
            put(RecordHeader(name: "pushgate-id", bytes: shared.id))
            put(RecordHeader(name: "pushgate-format", value: HeaderText.format(format)))
            put(RecordHeader(name: "pushgate-source", bytes: shared.source))
            if shared.dryRun { put(RecordHeader(name: "pushgate-dry-run", value: HeaderText.true)) }
            if let warningsJSON { put(RecordHeader(name: "pushgate-warnings", value: warningsJSON)) }
            if apns {
                put(RecordHeader(name: "apns-push-type", bytes: shared.pushType))
                put(RecordHeader(name: "apns-priority", bytes: shared.priority))
                put(RecordHeader(name: "apns-expiration", bytes: shared.expiration))
                if let collapseID = shared.collapseID { put(RecordHeader(name: "apns-collapse-id", bytes: collapseID)) }
            }
            initialized = position
        }
        return OutputRecord(
            topic: configuration.topic(for: format), format: format, key: record.key, value: value, headers: headers)
    }

    /// floor(timestamp ms / 1000) + ttl, or 0 when ttl is 0.
    private static func expiration(_ notification: PushNotification, _ timestampMs: Int64) -> Int64 {
        let ttl = notification.message.ttlSeconds
        guard ttl != 0 else { return 0 }
        // Floor division that cannot overflow, even for Int64.min.
        let (quotient, remainder) = timestampMs.quotientAndRemainder(dividingBy: 1000)
        let seconds = remainder < 0 ? quotient - 1 : quotient
        return seconds + ttl
    }

    /// The parse-stage dead letter and its report.
    func parseFailure(_ diagnostic: Diagnostic) -> Translation {
        Translation(
            records: [deadLetter(stage: .parse, format: nil, errors: [diagnostic], id: nil)],
            deadLetters: [report(stage: .parse, format: nil, errors: [diagnostic], id: nil)])
    }

    func deadLetter(stage: Stage, format: OutputFormat?, errors: [Diagnostic], id: String?) -> OutputRecord {
        // Every header value but pushgate-errors in one buffer, each a slice of it.
        var text: [UInt8] = []
        text.reserveCapacity(256)
        func part(_ append: (inout [UInt8]) -> Void) -> Range<Int> {
            let start = text.count
            append(&text)
            return start..<text.count
        }
        let topic = part { $0.append(contentsOf: record.topic.utf8) }
        text.append(UInt8(ascii: ":"))
        let partition = part { Self.appendDecimal(Int64(record.partition), to: &$0) }
        text.append(UInt8(ascii: ":"))
        let offset = part { Self.appendDecimal(record.offset, to: &$0) }
        let first = errors.first.map { first in
            (
                part { $0.append(contentsOf: first.code.rawValue.utf8) },
                part { $0.append(contentsOf: first.exceptionMessage.utf8) }
            )
        }
        // Without an id, pushgate-id is TOPIC:PARTITION:OFFSET, which the buffer holds already.
        let pushgateID =
            id.map { id in part { $0.append(contentsOf: id.utf8) } } ?? (topic.lowerBound..<offset.upperBound)
        var headers = forwardedHeaders
        headers.reserveCapacity(forwardedHeaders.count + 9)
        headers.append(RecordHeader(name: "__connect.errors.topic", bytes: text[topic]))
        headers.append(RecordHeader(name: "__connect.errors.partition", bytes: text[partition]))
        headers.append(RecordHeader(name: "__connect.errors.offset", bytes: text[offset]))
        headers.append(RecordHeader(name: "__connect.errors.stage", value: HeaderText.stage(stage)))
        if let (code, message) = first {
            headers.append(RecordHeader(name: "__connect.errors.exception.class.name", bytes: text[code]))
            headers.append(RecordHeader(name: "__connect.errors.exception.message", bytes: text[message]))
        }
        headers.append(RecordHeader(name: "pushgate-id", bytes: text[pushgateID]))
        if let format { headers.append(RecordHeader(name: "pushgate-format", value: HeaderText.format(format))) }
        headers.append(RecordHeader(name: "pushgate-errors", value: errors.encodedJSON()))
        return OutputRecord(
            topic: configuration.deadLetterTopic, format: nil, key: record.key, value: record.value, headers: headers)
    }

    /// The report of the dead letter ``deadLetter(stage:format:errors:id:)`` builds from the same arguments.
    func report(stage: Stage, format: OutputFormat?, errors: [Diagnostic], id: String?) -> DeadLetterReport {
        DeadLetterReport(
            stage: stage, format: format, errors: errors, id: id ?? sourceReference, source: sourceReference)
    }
}

/// Header values pushgate writes often, encoded once.
enum HeaderText {
    static let `true` = Array("true".utf8)
    static let alert = Array("alert".utf8)
    static let background = Array("background".utf8)
    static let five = Array("5".utf8)
    static let ten = Array("10".utf8)
    static let apns = Array("apns".utf8)
    static let adobeCarousel = Array("adobe-carousel".utf8)
    static let fbCard = Array("fb-card".utf8)
    static let androidExpandable = Array("android-expandable".utf8)
    static let fcm = Array("fcm".utf8)

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

    /// `pushgate-format` of each format (a switch: a new format cannot be forgotten here).
    static func format(_ format: OutputFormat) -> [UInt8] {
        switch format {
        case .apns: apns
        case .adobeCarousel: adobeCarousel
        case .fbCard: fbCard
        case .androidExpandable: androidExpandable
        case .fcm: fcm
        }
    }
}
