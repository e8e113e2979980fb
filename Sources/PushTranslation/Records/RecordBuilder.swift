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
            record.headers.contains { Self.isOwnHeader($0.name) } ? record.headers.filter { !Self.isOwnHeader($0.name) } : record.headers
    }

    /// `TOPIC:PARTITION:OFFSET` of the input record.
    var sourceReference: String { record.sourceReference }

    /// The header values every output of one input shares, made once.
    struct OutputHeaders {
        var id: [UInt8]
        var source: [UInt8]
        var dryRun: Bool
        /// `apns-push-type`, `apns-priority`, `apns-expiration` and `apns-collapse-id` (`nil` when not set).
        var pushType: [UInt8]
        var priority: [UInt8]
        var expiration: [UInt8]
        var collapseID: [UInt8]?
    }

    /// The header values shared by the outputs of `notification`.
    func outputHeaders(notification: PushNotification, id: String?, collapseID: String?, timestampMs: Int64) -> OutputHeaders {
        var source: [UInt8] = []
        source.reserveCapacity(record.topic.utf8.count + 24)
        source.append(contentsOf: record.topic.utf8)
        source.append(UInt8(ascii: ":"))
        appendDecimal(Int64(record.partition), to: &source)
        source.append(UInt8(ascii: ":"))
        appendDecimal(record.offset, to: &source)
        let background = APSWriter.isBackground(notification)
        let high = !background && notification.message.priority == .high
        var expiration: [UInt8] = []
        if notification.formats.contains(where: \.isDeliveredByAPNs) {
            appendDecimal(Self.expiration(notification, timestampMs), to: &expiration)
        }
        return OutputHeaders(
            id: id.map { Array($0.utf8) } ?? source, source: source, dryRun: notification.dryRun,
            pushType: background ? HeaderText.background : HeaderText.alert, priority: high ? HeaderText.ten : HeaderText.five,
            expiration: expiration, collapseID: collapseID.map { Array($0.utf8) })
    }

    /// Appends the decimal digits of `value` (a string of at most 20 digits: stored inline, not allocated).
    private func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: String(value).utf8)
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

    func output(format: OutputFormat, value: [UInt8], headers shared: OutputHeaders, warnings: [Diagnostic]) -> OutputRecord {
        var headers = forwardedHeaders
        headers.reserveCapacity(forwardedHeaders.count + 9)
        headers.append(RecordHeader(name: "pushgate-id", value: shared.id))
        headers.append(RecordHeader(name: "pushgate-format", value: HeaderText.format(format)))
        headers.append(RecordHeader(name: "pushgate-source", value: shared.source))
        if shared.dryRun { headers.append(RecordHeader(name: "pushgate-dry-run", value: HeaderText.true)) }
        if !warnings.isEmpty { headers.append(RecordHeader(name: "pushgate-warnings", value: warnings.encodedJSON())) }
        if format.isDeliveredByAPNs {
            headers.append(RecordHeader(name: "apns-push-type", value: shared.pushType))
            headers.append(RecordHeader(name: "apns-priority", value: shared.priority))
            headers.append(RecordHeader(name: "apns-expiration", value: shared.expiration))
            if let collapseID = shared.collapseID { headers.append(RecordHeader(name: "apns-collapse-id", value: collapseID)) }
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
        var headers = forwardedHeaders
        headers.append(RecordHeader(name: "__connect.errors.topic", text: record.topic))
        headers.append(RecordHeader(name: "__connect.errors.partition", text: String(record.partition)))
        headers.append(RecordHeader(name: "__connect.errors.offset", text: String(record.offset)))
        headers.append(RecordHeader(name: "__connect.errors.stage", text: stage.rawValue))
        if let first = errors.first {
            headers.append(RecordHeader(name: "__connect.errors.exception.class.name", text: first.code.rawValue))
            headers.append(RecordHeader(name: "__connect.errors.exception.message", text: first.exceptionMessage))
        }
        headers.append(RecordHeader(name: "pushgate-id", text: id ?? sourceReference))
        if let format { headers.append(RecordHeader(name: "pushgate-format", text: format.rawValue)) }
        headers.append(RecordHeader(name: "pushgate-errors", value: errors.encodedJSON()))
        return OutputRecord(
            topic: configuration.deadLetterTopic, format: nil, key: record.key, value: record.value, headers: headers)
    }

    /// The report of the dead letter ``deadLetter(stage:format:errors:id:)`` builds from the same arguments.
    func report(stage: Stage, format: OutputFormat?, errors: [Diagnostic], id: String?) -> DeadLetterReport {
        DeadLetterReport(stage: stage, format: format, errors: errors, id: id ?? sourceReference, source: sourceReference)
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
