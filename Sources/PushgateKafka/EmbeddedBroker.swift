import CRdKafka
import Logging
import Synchronization

/// A Kafka cluster inside this process, on loopback: librdkafka's mock cluster, for demos and tests.
///
/// It implements enough of the protocol for producers, group consumers and commits, and can inject
/// faults. Limits (librdkafka 2.0): each partition keeps about 5 MiB, transactions have no effect, and
/// consumer groups cannot be described.
public final class EmbeddedBroker: Sendable {
    /// The address clients connect to, a `host:port,...` list for `bootstrap.servers`.
    public let bootstrapServers: String
    /// How many brokers the cluster has; their ids are 1 through `brokerCount`.
    public let brokerCount: Int
    private let host: RDKafkaClient
    private let cluster: MockCluster

    /// Starts a cluster of `brokerCount` brokers and creates `topics` with `partitions` partitions each.
    /// - Parameter traceEvents: log, at debug level, every append to a partition and every offset commit,
    ///   in the order the cluster serves them (librdkafka's `debug=mock` lines): one thread serves every
    ///   broker of the cluster and logs each event before it answers the request, so the log is the order
    ///   in which records became readable and commits were stored.
    public init(
        brokerCount: Int = 1, topics: [String] = [], partitions: Int = 8,
        logger: Logger = Logger(label: "pushgate.broker"), traceEvents: Bool = false
    ) throws(KafkaError) {
        guard brokerCount >= 1 else { throw KafkaError.client("an embedded broker needs at least 1 broker") }
        // A producer handle that never produces hosts the cluster, as librdkafka's own tests do. Its
        // notice that it has no bootstrap servers is expected, so it logs warnings and worse only.
        var hostLogger = logger
        hostLogger.logLevel = traceEvents ? .debug : max(logger.logLevel, .warning)
        var properties = [("log.connection.close", "false")]
        if traceEvents { properties.append(("debug", "mock")) }
        let host = try RDKafkaClient.make(
            kind: .producer, properties: properties,
            callbacks: RDKafkaCallbacks(logger: hostLogger, statisticsHandler: nil))
        guard let pointer = rd_kafka_mock_cluster_new(host.handle, Int32(clamping: brokerCount)) else {
            host.destroy()
            throw KafkaError.client("cannot start the mock cluster")
        }
        self.host = host
        self.cluster = MockCluster(pointer)
        self.brokerCount = brokerCount
        self.bootstrapServers = String(cString: rd_kafka_mock_cluster_bootstraps(pointer))
        for topic in topics { try createTopic(topic, partitions: partitions) }
    }

    /// Creates `topic` with `partitions` partitions (replication factor at most the broker count).
    public func createTopic(_ topic: String, partitions: Int, replicationFactor: Int = 1) throws(KafkaError) {
        guard let partitionCount = Int32(exactly: partitions), partitionCount >= 1 else {
            throw KafkaError.client("a topic needs 1 or more partitions (at most \(Int32.max)), not \(partitions)")
        }
        let replicas = Int32(clamping: max(1, min(replicationFactor, brokerCount)))
        let code = try cluster.with { rd_kafka_mock_topic_create($0, topic, partitionCount, replicas) }
        try check(code, "create topic \(topic)")
    }

    /// Makes the cluster answer a metadata request for `topic` with the error `code`, as for a topic it
    /// does not have (`UNKNOWN_TOPIC_OR_PART`: the mock cluster otherwise creates any topic a client asks
    /// about); `NO_ERROR` (0) takes the error away. The topic is created if it does not exist.
    public func setTopicError(_ topic: String, code: Int32) throws(KafkaError) {
        try cluster.with { rd_kafka_mock_topic_set_error($0, topic, rd_kafka_resp_err_t(rawValue: code)) }
    }

    /// Takes broker `id` down: its connections close and new ones are refused.
    public func setBrokerDown(_ id: Int32) throws(KafkaError) {
        try check(try cluster.with { rd_kafka_mock_broker_set_down($0, id) }, "broker \(id) down")
    }

    /// Brings broker `id` back up.
    public func setBrokerUp(_ id: Int32) throws(KafkaError) {
        try check(try cluster.with { rd_kafka_mock_broker_set_up($0, id) }, "broker \(id) up")
    }

    /// Delays every response of broker `id` by `milliseconds`.
    public func setRoundTripTime(broker id: Int32, milliseconds: Int32) throws(KafkaError) {
        try check(try cluster.with { rd_kafka_mock_broker_set_rtt($0, id, milliseconds) }, "broker \(id) rtt")
    }

    /// Makes the next `errors.count` requests of type `apiKey` (see ``KafkaAPIKey``) fail, the first
    /// with `errors[0]`, and so on (`_TRANSPORT` disconnects the client).
    public func pushRequestErrors(apiKey: Int16, errors: [Int32]) throws(KafkaError) {
        let codes = errors.map { rd_kafka_resp_err_t(rawValue: $0) }
        try cluster.with { pointer in
            codes.withUnsafeBufferPointer { buffer in
                rd_kafka_mock_push_request_errors_array(pointer, apiKey, buffer.count, buffer.baseAddress)
            }
        }
    }

    /// Forgets the injected errors of `apiKey` not yet returned.
    public func clearRequestErrors(apiKey: Int16) throws(KafkaError) {
        try cluster.with { rd_kafka_mock_clear_request_errors($0, apiKey) }
    }

    /// Stops the cluster and its host handle. Calling it again does nothing; deinit calls it too.
    public func shutdown() {
        guard cluster.destroy() else { return }
        host.destroy()
    }

    deinit { shutdown() }

    private func check(_ code: rd_kafka_resp_err_t, _ what: String) throws(KafkaError) {
        if code != RD_KAFKA_RESP_ERR_NO_ERROR {
            throw KafkaError(code, message: "\(what): \(String(cString: rd_kafka_err2str(code)))")
        }
    }
}

/// The `rd_kafka_mock_cluster_t` pointer, destroyed once: it is only used or cleared while its mutex is
/// held, so no call can meet a destroyed cluster.
private final class MockCluster: Sendable {
    private let pointer: Mutex<RDKafkaPointer?>

    init(_ pointer: OpaquePointer) { self.pointer = Mutex(RDKafkaPointer(pointer)) }

    /// Runs `body` with the live cluster. - Throws: ``KafkaError`` once the cluster is destroyed.
    func with<Result: Sendable>(_ body: (OpaquePointer) -> Result) throws(KafkaError) -> Result {
        let result: Result? = pointer.withLock { current in current.map { body($0.raw) } }
        guard let result else { throw KafkaError.client("the embedded broker is shut down") }
        return result
    }

    /// Destroys the cluster; `false` when it already was.
    func destroy() -> Bool {
        pointer.withLock { current in
            guard let live = current else { return false }
            rd_kafka_mock_cluster_destroy(live.raw)
            current = nil
            return true
        }
    }
}
