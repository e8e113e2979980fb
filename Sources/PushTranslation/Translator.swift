import PushModel

/// Translates one input record into its output records and dead letters: a pure function of the
/// record's bytes, key, headers and timestamp. Thread-safe; keep one and reuse it.
///
/// The payload is scanned into a flat token array (reused per thread), validated in place, and the
/// outputs are written from the IR and the input bytes: no tree of values or strings is built.
public struct Translator: Sendable {
    /// The configuration: topics, limits, leniency.
    public let configuration: TranslatorConfiguration

    /// Creates a translator.
    public init(configuration: TranslatorConfiguration = TranslatorConfiguration()) {
        self.configuration = configuration
    }

    /// The records one input yields, in SPEC order: outputs (apns, adobe-carousel, fb-card,
    /// android-expandable, fcm, webpush), then dead letters.
    /// - Parameters:
    ///   - record: the input record.
    ///   - readAtMs: when the record was read, in ms since the epoch; used for `apns-expiration` and a Live
    ///     Activity's default `timestamp` when the record has no timestamp.
    public func translate(_ record: InputRecord, readAtMs: Int64) -> [OutputRecord] {
        translation(of: record, readAtMs: readAtMs).records
    }

    /// The records one input yields (as ``translate(_:readAtMs:)``), with the diagnostics behind its dead
    /// letters and warnings, for logs and metrics.
    public func translation(of record: InputRecord, readAtMs: Int64) -> Translation {
        RecordBuilder.with(record: record, configuration: configuration) { builder in
            translation(of: record, builder, readAtMs: readAtMs)
        }
    }

    private func translation(of record: InputRecord, _ builder: RecordBuilder, readAtMs: Int64) -> Translation {
        if let tooLarge = PayloadParser.checkSize(record.value, maxPayloadBytes: configuration.maxPayloadBytes) {
            return builder.parseFailure(tooLarge)
        }
        return record.value.withUnsafeBufferPointer { value in
            // SPEC 2 (version 4): a Schema Registry frame is read past; the dead letter keeps the whole value.
            guard let bytes = PayloadParser.payload(ofValue: value) else {
                return builder.parseFailure(PayloadParser.truncatedFrame(value.count))
            }
            return ScratchTokens.with(capacity: bytes.count) { tokens in
                switch PayloadParser.parse(bytes, into: tokens) {
                case .failure(let failure): builder.parseFailure(failure)
                case .success(let count):
                    translate(
                        JSONDocument(bytes: bytes, tokens: UnsafeBufferPointer(start: tokens, count: count)), builder,
                        readAtMs: readAtMs)
                }
            }
        }
    }

    private func translate(_ document: JSONDocument, _ builder: RecordBuilder, readAtMs: Int64) -> Translation {
        var validator = PayloadValidator(
            document: document, lenient: configuration.lenient, androidFormats: configuration.androidFormats)
        let outcome = validator.run()
        guard outcome.errors.isEmpty else {
            let id = validator.notification.id.map { document.string($0) }
            return Translation(
                records: [builder.deadLetter(stage: .validate, format: nil, errors: outcome.errors, id: id)],
                deadLetters: [builder.report(stage: .validate, format: nil, errors: outcome.errors, id: id)],
                warnings: outcome.warnings)
        }
        return emit(validator.notification, document, builder, warnings: outcome.warnings, readAtMs: readAtMs)
    }

    private func emit(
        _ notification: borrowing PushNotification, _ document: JSONDocument, _ builder: RecordBuilder,
        warnings validateWarnings: [Diagnostic], readAtMs: Int64
    ) -> Translation {
        var records: [OutputRecord] = []
        var reports: [DeadLetterReport] = []
        var warnings = validateWarnings
        let timestampMs = builder.record.pointee.timestampMs ?? readAtMs
        let headers = builder.sharedHeaders(notification: notification, timestampMs: timestampMs)
        // Every format writes into one scratch buffer, so that a part one writes is there for the others to copy.
        // Dead letters are made after it is given back (their headers are written with a scratch buffer too).
        var failures: [(format: OutputFormat, errors: [Diagnostic])] = []
        var places = RecordBuilder.SharedPlaces()
        JSONWriter.withScratch { writer in
            withUnsafeTemporaryAllocation(of: WrittenValue.self, capacity: notification.formats.count) { written in
                var count = 0
                // A format's own `pushgate-warnings` (rare: most outputs have the validate stage's, or none).
                var ownWarningsJSON: [(output: Int, json: [UInt8])] = []
                var shared = SharedParts(dataNameLengths: SharedParts.nameLengths(of: notification.data, document))
                let validateWarningsJSON = validateWarnings.isEmpty ? nil : validateWarnings.encodedJSON(into: &writer)
                for format in notification.formats {
                    let start = writer.count
                    let emission = Self.emit(format, notification, document, shared, timestampMs: timestampMs, &writer)
                    guard emission.errors.isEmpty else {
                        // Taken back, so that the values stay one after the other in the writer.
                        writer.truncate(to: start, needsComma: false)
                        failures.append((format, emission.errors.sorted()))
                        continue
                    }
                    shared.keep(emission.parts)
                    if !emission.warnings.isEmpty {
                        warnings += emission.warnings
                        let json = (validateWarnings + emission.warnings).encodedJSON(into: &writer)
                        ownWarningsJSON.append((count, json))
                    }
                    written.initializeElement(at: count, to: WrittenValue(format: format, range: emission.value))
                    count += 1
                }
                let outputs = UnsafeBufferPointer(rebasing: written[..<count])
                let buffer: [UInt8]
                (buffer, places) = Self.sharedBuffer(outputs, in: &writer, builder, notification, document, headers)
                records.reserveCapacity(count + failures.count)
                for (index, output) in outputs.enumerated() {
                    let warningsJSON = ownWarningsJSON.first { $0.output == index }?.json ?? validateWarningsJSON
                    let offset = outputs[0].range.lowerBound
                    records.append(
                        builder.output(
                            format: output.format,
                            value: BufferRange(output.range.lowerBound - offset..<output.range.upperBound - offset),
                            buffer: buffer, places: places, headers: headers, warnings: warningsJSON))
                }
            }
        }
        // The apns output of a Live Activity push has headers of its own (SPEC 5.1.1).
        if notification.liveActivity != nil, let apns = records.firstIndex(where: { $0.format == .apns }) {
            builder.setLiveActivityHeaders(of: &records[apns], notification, places: places)
        }
        for (format, errors) in failures {
            let id = notification.id.map { document.string($0) }
            records.append(builder.deadLetter(stage: .emit, format: format, errors: errors, id: id))
            reports.append(builder.report(stage: .emit, format: format, errors: errors, id: id))
        }
        return Translation(records: records, deadLetters: reports, warnings: warnings)
    }

    /// Where an output's value was written: its format and its bytes in the writer.
    private struct WrittenValue {
        var format: OutputFormat
        var range: Range<Int>
    }

    /// The buffer the outputs of an input share, in one allocation: the values of `written` (they follow one
    /// another in `writer`), then the parts of their headers ``RecordBuilder/appendSharedParts(_:_:_:to:from:)``
    /// appends after them; and where those parts are in it.
    private static func sharedBuffer(
        _ written: UnsafeBufferPointer<WrittenValue>, in writer: inout JSONWriter, _ builder: RecordBuilder,
        _ notification: borrowing PushNotification, _ document: JSONDocument, _ headers: RecordBuilder.SharedHeaders
    ) -> ([UInt8], RecordBuilder.SharedPlaces) {
        guard let first = written.first, let last = written.last else { return ([], RecordBuilder.SharedPlaces()) }
        for (value, next) in zip(written, written.dropFirst()) {
            assert(value.range.upperBound == next.range.lowerBound, "Translator: values apart in the writer")
        }
        let (start, end) = (first.range.lowerBound, last.range.upperBound)
        writer.truncate(to: end, needsComma: false)
        let places = builder.appendSharedParts(notification, document, headers, to: &writer, from: start)
        let range = start..<writer.count
        return (writer.withBytes { Array(UnsafeBufferPointer(rebasing: $0[range])) }, places)
    }

    /// The emitter of each format: a switch, so that a new format cannot be left out. `timestampMs` is the
    /// input record's time (its timestamp, else when it was read): a Live Activity's default `timestamp`.
    private static func emit(
        _ format: OutputFormat, _ notification: borrowing PushNotification, _ document: JSONDocument,
        _ shared: SharedParts, timestampMs: Int64, _ writer: inout JSONWriter
    ) -> Emission {
        switch format {
        case .apns:
            APNsEmitter(recordTimestampMs: timestampMs)
                .emit(notification, document: document, shared: shared, into: &writer)
        case .adobeCarousel:
            AdobeCarouselEmitter().emit(notification, document: document, shared: shared, into: &writer)
        case .fbCard: FacebookCardEmitter().emit(notification, document: document, shared: shared, into: &writer)
        case .androidExpandable:
            AndroidExpandableEmitter().emit(notification, document: document, shared: shared, into: &writer)
        case .fcm: FCMEmitter().emit(notification, document: document, shared: shared, into: &writer)
        case .webpush: WebPushEmitter().emit(notification, document: document, shared: shared, into: &writer)
        }
    }
}
