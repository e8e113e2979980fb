import CRdKafka

/// Receives the delivery reports of the records produced with it, on the producer's poll thread:
/// subclass it and override ``received(_:)``.
///
/// The fast way to learn of deliveries: a record produced with a receiver carries only a retained
/// reference to it through librdkafka (no closure, no copy of the record), and the report is read in
/// place. One receiver may serve many records. A class rather than a protocol: the reference librdkafka
/// hands back is called through the class's own method table, with no conformance lookup per report.
///
/// A receiver crosses to the thread that serves the reports, so ``KafkaProducer`` takes only receivers
/// that are `Sendable`. This class holds no state and is not `Sendable` itself: Swift does not check
/// `Sendable` on a class that inherits from another, so a subclass declares `@unchecked Sendable` and
/// says why that holds (its stored properties `let`s of `Sendable` types, what changes atomic or behind
/// a `Mutex`). librdkafka hands a record, with its receiver, from the thread that produced it to the
/// thread that serves its report through queues under a lock: whatever a receiver's `init` wrote
/// happens before its reports.
open class KafkaDeliveryReceiver {
    /// Creates a receiver.
    public init() {}

    /// One record's delivery report, on the producer's poll thread: keep it short and never block.
    /// `delivery` is valid only during the call. The base class ignores it.
    open func received(_ delivery: KafkaDelivery) {}
}

/// One record's delivery report, read in place from librdkafka's message: valid only during
/// ``KafkaDeliveryReceiver/received(_:)``.
public struct KafkaDelivery {
    let message: UnsafePointer<rd_kafka_message_t>
    let handle: OpaquePointer?

    /// Whether the broker acknowledged the record.
    public var succeeded: Bool { message.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR }

    /// Why the record was not written; `nil` when it was. Never carries the record's content:
    /// `rd_kafka_message_errstr` returns a failed record's payload, so it is not used.
    public var error: KafkaError? {
        let code = message.pointee.err
        guard code != RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        if code == RD_KAFKA_RESP_ERR__FATAL, let handle, let fatal = RDKafkaClient.fatalError(of: handle) {
            return fatal
        }
        return KafkaError(code)
    }

    /// The partition the record went to (or was meant for).
    public var partition: Int32 { message.pointee.partition }

    /// The offset the broker gave the record; `nil` when librdkafka does not know it.
    public var offset: Int64? { message.pointee.offset >= 0 ? message.pointee.offset : nil }

    /// The record's topic (a new string: for failures, not for every report).
    public var topic: String { message.pointee.rkt.map { String(cString: rd_kafka_topic_name($0)) } ?? "" }

    /// A copy of the record as it was handed over: topic, key, value and headers (the partition is left
    /// to the partitioner). For writing a replacement of a refused record.
    public func record() -> KafkaProducerMessage {
        let raw = message.pointee
        let key = raw.key.map { Array(UnsafeRawBufferPointer(start: $0, count: raw.key_len)) }
        let value = raw.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: raw.len)) } ?? []
        return KafkaProducerMessage(
            topic: topic, key: key, value: value, headers: KafkaHeader.headers(of: message),
            valueIsNull: raw.payload == nil)
    }
}

/// Calls a closure with each report: the convenient, slower way (one allocation per record).
///
/// `@unchecked Sendable` because Swift does not check `Sendable` on a subclass, but it holds: its two
/// stored properties are `let`s of `Sendable` types (a `@Sendable` closure and a `String`), set in
/// `init` before the receiver is handed to librdkafka, and its base class holds nothing. What reaches
/// the poll thread is only read there; the closure's own captures are checked where it is written, as
/// `@Sendable`.
final class ClosureDeliveryReceiver: KafkaDeliveryReceiver, @unchecked Sendable {
    private let handler: KafkaProducer.DeliveryHandler
    private let topic: String

    init(_ handler: @escaping KafkaProducer.DeliveryHandler, topic: String) {
        self.handler = handler
        self.topic = topic
    }

    override func received(_ delivery: KafkaDelivery) {
        if let error = delivery.error {
            handler(.failure(error))
        } else {
            handler(.success(KafkaDeliveryReport(topic: topic, partition: delivery.partition, offset: delivery.offset)))
        }
    }
}
