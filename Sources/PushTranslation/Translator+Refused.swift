import PushModel

extension Translator {
    /// The dead letter that replaces an output the broker refused as too large (its limit below the
    /// producer's): the input unchanged, stage `emit`, the output's format, one `payload_too_large`
    /// error naming the refusal. `nil` when the refused record is itself a dead letter (the worker then
    /// writes it without its value).
    /// - Parameters:
    ///   - record: the input record the output was made from.
    ///   - refused: the output the broker refused.
    ///   - reason: the broker's error, e.g. `MSG_SIZE_TOO_LARGE`; never the record's content.
    public func deadLetter(replacing refused: OutputRecord, of record: InputRecord, reason: String) -> OutputRecord? {
        guard let format = refused.format else { return nil }
        let id = refused.headers.first { $0.name == "pushgate-id" }?.value.map { String(decoding: $0, as: UTF8.self) }
        let error = Diagnostic(
            .payloadTooLarge, at: "",
            "the broker refused the \(format.rawValue) record of \(refused.value.count) bytes as too large (\(reason)); shorten the text or data, or raise the topic's max.message.bytes"
        )
        return RecordBuilder.with(record: record, configuration: configuration) { builder in
            builder.deadLetter(stage: .emit, format: format, errors: [error], id: id)
        }
    }
}
