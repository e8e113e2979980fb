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
        let builder = RecordBuilder(record: record, configuration: configuration)
        let root: JSONObject
        switch PayloadParser.parse(record.value, maxPayloadBytes: configuration.maxPayloadBytes) {
        case .failure(let diagnostic):
            return [builder.deadLetter(stage: .parse, format: nil, errors: [diagnostic], id: nil)]
        case .success(let object):
            root = object
        }
        let outcome = PayloadValidator.validate(root, lenient: configuration.lenient)
        let notification = outcome.notification
        guard outcome.errors.isEmpty else {
            return [builder.deadLetter(stage: .validate, format: nil, errors: outcome.errors, id: notification.id)]
        }
        var outputs: [OutputRecord] = []
        var deadLetters: [OutputRecord] = []
        let timestampMs = record.timestampMs ?? readAtMs
        for format in notification.formats {
            let emission = emitters[format.order].emit(notification)
            if emission.errors.isEmpty {
                outputs.append(
                    builder.output(
                        format: format, value: emission.value, notification: notification,
                        warnings: outcome.warnings + emission.warnings, timestampMs: timestampMs))
            } else {
                deadLetters.append(
                    builder.deadLetter(stage: .emit, format: format, errors: emission.errors.sorted(), id: notification.id))
            }
        }
        return outputs + deadLetters
    }
}
