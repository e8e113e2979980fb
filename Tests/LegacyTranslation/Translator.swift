import PushModel

/// Translates one input record into its output records and dead letters: a pure function of the
/// record's bytes, key, headers and timestamp. Thread-safe; keep one and reuse it.
public struct Translator: Sendable {
    /// The configuration: topics, limits, leniency.
    public let configuration: TranslatorConfiguration
    private let emitters: [any Emitter]

    /// Creates a translator.
    public init(configuration: TranslatorConfiguration = TranslatorConfiguration()) {
        self.configuration = configuration
        // Indexed by OutputFormat.order.
        self.emitters = [APNsEmitter(), AdobeCarouselEmitter(), FacebookCardEmitter(), AndroidExpandableEmitter()]
    }

    /// The records one input yields, in SPEC order: outputs (apns, adobe-carousel, fb-card,
    /// android-expandable), then dead letters.
    /// - Parameters:
    ///   - record: the input record.
    ///   - readAtMs: when the record was read, in ms since the epoch; used for `apns-expiration` when the
    ///     record has no timestamp.
    public func translate(_ record: InputRecord, readAtMs: Int64) -> [OutputRecord] {
        translation(of: record, readAtMs: readAtMs).records
    }

    /// The records one input yields (as ``translate(_:readAtMs:)``), with the diagnostics behind its dead
    /// letters and warnings, for logs and metrics.
    public func translation(of record: InputRecord, readAtMs: Int64) -> Translation {
        let builder = RecordBuilder(record: record, configuration: configuration)
        let root: JSONObject
        switch PayloadParser.parse(record.value, maxPayloadBytes: configuration.maxPayloadBytes) {
        case .failure(let diagnostic):
            return Translation(
                records: [builder.deadLetter(stage: .parse, format: nil, errors: [diagnostic], id: nil)],
                deadLetters: [builder.report(stage: .parse, format: nil, errors: [diagnostic], id: nil)])
        case .success(let object):
            root = object
        }
        let outcome = PayloadValidator.validate(root, lenient: configuration.lenient)
        let notification = outcome.notification
        guard outcome.errors.isEmpty else {
            return Translation(
                records: [builder.deadLetter(stage: .validate, format: nil, errors: outcome.errors, id: notification.id)],
                deadLetters: [builder.report(stage: .validate, format: nil, errors: outcome.errors, id: notification.id)],
                warnings: outcome.warnings)
        }
        var outputs: [OutputRecord] = []
        var deadLetters: [OutputRecord] = []
        var reports: [DeadLetterReport] = []
        var warnings = outcome.warnings
        let timestampMs = record.timestampMs ?? readAtMs
        for format in notification.formats {
            let emission = emitters[format.order].emit(notification)
            warnings += emission.warnings
            if emission.errors.isEmpty {
                outputs.append(
                    builder.output(
                        format: format, value: emission.value, notification: notification,
                        warnings: outcome.warnings + emission.warnings, timestampMs: timestampMs))
            } else {
                let errors = emission.errors.sorted()
                deadLetters.append(builder.deadLetter(stage: .emit, format: format, errors: errors, id: notification.id))
                reports.append(builder.report(stage: .emit, format: format, errors: errors, id: notification.id))
            }
        }
        return Translation(records: outputs + deadLetters, deadLetters: reports, warnings: warnings)
    }
}
