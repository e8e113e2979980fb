import CRdKafka
import Logging
import Synchronization

/// What a client's C callbacks reach through librdkafka's per-instance opaque pointer.
///
/// Every stored property is immutable after init except `fatalError`, which is behind a mutex; the
/// closures themselves are `@Sendable`.
final class RDKafkaCallbacks: Sendable {
    typealias RebalanceHandler =
        @Sendable (
            _ handle: OpaquePointer, _ event: rd_kafka_resp_err_t,
            _ partitions: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>
        ) -> Void

    let logger: Logger
    let statisticsHandler: (@Sendable (String) -> Void)?
    let fatalErrorHandler: (@Sendable (KafkaError) -> Void)?
    let errorHandler: (@Sendable (KafkaError) -> Void)?
    let rebalanceHandler: RebalanceHandler?
    let fatalError = Mutex<KafkaError?>(nil)

    init(
        logger: Logger, statisticsHandler: (@Sendable (String) -> Void)?,
        fatalErrorHandler: (@Sendable (KafkaError) -> Void)? = nil, rebalanceHandler: RebalanceHandler? = nil,
        errorHandler: (@Sendable (KafkaError) -> Void)? = nil
    ) {
        self.errorHandler = errorHandler
        self.logger = logger
        self.statisticsHandler = statisticsHandler
        self.fatalErrorHandler = fatalErrorHandler
        self.rebalanceHandler = rebalanceHandler
    }

    /// Records the first fatal error and tells the owner; later ones are only logged.
    func reportFatal(_ error: KafkaError) {
        let isFirst = fatalError.withLock { stored in
            if stored != nil { return false }
            stored = error
            return true
        }
        logger.critical("\(error)")
        errorHandler?(error)
        if isFirst { fatalErrorHandler?(error) }
    }

    static func from(_ handle: OpaquePointer?) -> RDKafkaCallbacks? {
        guard let handle, let opaque = rd_kafka_opaque(handle) else { return nil }
        return Unmanaged<RDKafkaCallbacks>.fromOpaque(opaque).takeUnretainedValue()
    }

    /// Installs the callbacks every client has: log, error and statistics.
    static func installCommon(on configuration: OpaquePointer) {
        rd_kafka_conf_set_log_cb(configuration) { handle, level, facility, message in
            guard let callbacks = RDKafkaCallbacks.from(handle) else { return }
            let text = message.map { String(cString: $0) } ?? ""
            let source = facility.map { String(cString: $0) } ?? "rdkafka"
            callbacks.logger.log(
                level: RDKafkaCallbacks.logLevel(syslog: level), "\(text)", metadata: ["facility": "\(source)"])
        }
        rd_kafka_conf_set_error_cb(configuration) { handle, code, reason, _ in
            guard let callbacks = RDKafkaCallbacks.from(handle) else { return }
            let text = reason.map { String(cString: $0) } ?? ""
            if code == RD_KAFKA_RESP_ERR__FATAL.rawValue, let handle {
                callbacks.reportFatal(
                    RDKafkaClient.fatalError(of: handle) ?? KafkaError(code: code, message: text, isFatal: true))
            } else {
                callbacks.logger.warning("librdkafka: \(KafkaError.name(of: code)): \(text)")
                callbacks.errorHandler?(KafkaError(code: code, message: text))
            }
        }
        rd_kafka_conf_set_stats_cb(configuration) { handle, json, length, _ in
            guard let callbacks = RDKafkaCallbacks.from(handle), let handler = callbacks.statisticsHandler,
                let json
            else { return 0 }
            let bytes = UnsafeRawBufferPointer(start: json, count: length)
            handler(String(decoding: bytes, as: UTF8.self))
            return 0
        }
    }

    static func logLevel(syslog level: Int32) -> Logger.Level {
        switch level {
        case ...2: .critical
        case 3: .error
        case 4: .warning
        case 5: .notice
        case 6: .info
        default: .debug
        }
    }
}
