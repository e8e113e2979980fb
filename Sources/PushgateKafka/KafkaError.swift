import CRdKafka

/// An error reported by librdkafka or by the binding: a librdkafka error code, its name and a message.
public struct KafkaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The librdkafka error code (`rd_kafka_resp_err_t`); negative codes are client-side errors.
    public let code: Int32
    /// The error code's name as librdkafka spells it, e.g. `NOT_LEADER_FOR_PARTITION` or `_TRANSPORT`.
    public let codeName: String
    /// A message a person can act on.
    public let message: String
    /// Whether the error is fatal: the client instance can no longer be used and the process should stop.
    public let isFatal: Bool

    /// Creates an error from a librdkafka code and a message.
    public init(code: Int32, message: String, isFatal: Bool = false) {
        self.code = code
        self.codeName = KafkaError.name(of: code)
        self.message = message
        self.isFatal = isFatal
    }

    init(_ code: rd_kafka_resp_err_t, message: String? = nil, isFatal: Bool = false) {
        let text = message ?? String(cString: rd_kafka_err2str(code))
        self.init(code: code.rawValue, message: text, isFatal: isFatal)
    }

    /// Takes ownership of an `rd_kafka_error_t`, converts it and destroys it.
    @usableFromInline
    init(consuming error: OpaquePointer) {
        let code = rd_kafka_error_code(error)
        let text = rd_kafka_error_string(error).map { String(cString: $0) } ?? ""
        let fatal = rd_kafka_error_is_fatal(error) != 0
        rd_kafka_error_destroy(error)
        self.init(code, message: text, isFatal: fatal)
    }

    /// An error raised by the binding itself (bad configuration, use after shutdown, ...).
    @usableFromInline
    static func client(_ message: String) -> KafkaError {
        KafkaError(RD_KAFKA_RESP_ERR__INVALID_ARG, message: message)
    }

    /// Whether the producer's local queue is full (`_QUEUE_FULL`): the record can be handed over again
    /// once delivery reports have drained the queue.
    public var isQueueFull: Bool { code == RD_KAFKA_RESP_ERR__QUEUE_FULL.rawValue }

    /// Whether the broker refused the record itself as too large (`MSG_SIZE_TOO_LARGE`,
    /// `INVALID_MSG_SIZE`, `RECORD_LIST_TOO_LARGE`): sending it again cannot succeed.
    public var isRecordTooLarge: Bool {
        [
            RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE, RD_KAFKA_RESP_ERR_INVALID_MSG_SIZE,
            RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE,
        ].contains { $0.rawValue == code }
    }

    /// The description: fatal or not, the code's name and number, and the message.
    public var description: String {
        "\(isFatal ? "fatal Kafka error" : "Kafka error") \(codeName) (\(code)): \(message)"
    }

    /// The librdkafka name of an error code, e.g. `MSG_SIZE_TOO_LARGE`.
    public static func name(of code: Int32) -> String {
        String(cString: rd_kafka_err2name(rd_kafka_resp_err_t(rawValue: code)))
    }

    /// The error code whose librdkafka name is `name` (compared case-insensitively, with or without the
    /// `RD_KAFKA_RESP_ERR_` prefix), or `nil` when there is none.
    public static func code(named name: String) -> Int32? {
        var wanted = name.uppercased()
        if wanted.hasPrefix("RD_KAFKA_RESP_ERR_") { wanted.removeFirst("RD_KAFKA_RESP_ERR_".count) }
        if let number = Int32(wanted) { return number }
        var descriptions: UnsafePointer<rd_kafka_err_desc>?
        var count = 0
        rd_kafka_get_err_descs(&descriptions, &count)
        guard let descriptions else { return nil }
        for index in 0..<count {
            let entry = descriptions[index]
            guard let entryName = entry.name else { continue }
            if String(cString: entryName).uppercased() == wanted { return entry.code.rawValue }
        }
        return nil
    }
}
