import CRdKafka
import Logging
import Synchronization

/// One librdkafka client instance (`rd_kafka_t`), producer or consumer, and the callbacks it reaches.
///
/// librdkafka's handle functions used through it are thread-safe (``RDKafkaPointer``), and `destroy()`
/// is called exactly once, by the owner, after its poll thread has stopped using it.
@usableFromInline
final class RDKafkaClient: Sendable {
    enum Kind { case producer, consumer }

    /// The `rd_kafka_t`.
    @usableFromInline
    var handle: OpaquePointer { pointer.raw }
    private let pointer: RDKafkaPointer
    let callbacks: RDKafkaCallbacks
    /// `bootstrap.servers` as configured, for messages.
    let bootstrapServers: String?
    private let opaque: Unmanaged<RDKafkaCallbacks>
    private let destroyed = Mutex(false)

    private init(
        handle: OpaquePointer, callbacks: RDKafkaCallbacks, bootstrapServers: String?,
        opaque: Unmanaged<RDKafkaCallbacks>
    ) {
        self.pointer = RDKafkaPointer(handle)
        self.bootstrapServers = bootstrapServers
        self.callbacks = callbacks
        self.opaque = opaque
    }

    /// Creates a client from properties; `configure` may install more callbacks on the configuration.
    static func make(
        kind: Kind, properties: [(String, String)], callbacks: RDKafkaCallbacks,
        configure: (OpaquePointer) -> Void = { _ in }
    ) throws(KafkaError) -> RDKafkaClient {
        guard let configuration = rd_kafka_conf_new() else { throw KafkaError.client("rd_kafka_conf_new failed") }
        var errorText = [CChar](repeating: 0, count: 512)
        for (key, value) in properties {
            let result = rd_kafka_conf_set(configuration, key, value, &errorText, errorText.count)
            if result != RD_KAFKA_CONF_OK {
                rd_kafka_conf_destroy(configuration)
                let shown = KafkaSecrets.isSecret(key: key) ? KafkaSecrets.redacted : value
                throw KafkaError.client("invalid librdkafka property \(key)=\(shown): \(string(errorText))")
            }
        }
        let opaque = Unmanaged.passRetained(callbacks)
        rd_kafka_conf_set_opaque(configuration, opaque.toOpaque())
        RDKafkaCallbacks.installCommon(on: configuration)
        configure(configuration)
        let type = kind == .producer ? RD_KAFKA_PRODUCER : RD_KAFKA_CONSUMER
        // On success rd_kafka_new takes ownership of the configuration; on failure it stays ours.
        guard let handle = rd_kafka_new(type, configuration, &errorText, errorText.count) else {
            rd_kafka_conf_destroy(configuration)
            opaque.release()
            throw KafkaError.client("cannot create the Kafka client: \(string(errorText))")
        }
        let servers = properties.last { $0.0 == "bootstrap.servers" }?.1
        return RDKafkaClient(handle: handle, callbacks: callbacks, bootstrapServers: servers, opaque: opaque)
    }

    /// The client's fatal error, if one was raised.
    var fatalError: KafkaError? { withLiveHandle { Self.fatalError(of: $0) } ?? nil }

    /// Runs a quick, non-blocking `body` with the handle unless the client is destroyed (then `nil`):
    /// ``destroy()`` cannot free the handle while `body` runs.
    func withLiveHandle<Value>(_ body: (OpaquePointer) -> Value) -> Value? {
        destroyed.withLock { done in done ? nil : body(handle) }
    }

    static func fatalError(of handle: OpaquePointer) -> KafkaError? {
        var text = [CChar](repeating: 0, count: 512)
        let code = rd_kafka_fatal_error(handle, &text, text.count)
        guard code != RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        return KafkaError(code, message: string(text), isFatal: true)
    }

    /// Destroys the handle (blocking: it waits for librdkafka's threads) and releases the callbacks.
    func destroy() {
        let first = destroyed.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        rd_kafka_destroy(handle)
        opaque.release()
    }

    private static func string(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
