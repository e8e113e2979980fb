import CRdKafka

/// What a message polled from librdkafka is to a consumer's poll loop.
enum PolledMessage {
    /// A record of `topic`, to hand over.
    case record(topic: String)
    /// The end of a partition, or a consume error (already logged and reported): poll on.
    case skip
    /// A fatal error (already reported): stop polling.
    case fatal

    /// Classifies `message`; for a record, looks its topic name up, once per run of records of one topic
    /// (`lastTopic`: records of one poll mostly share a topic).
    init(
        _ message: UnsafeMutablePointer<rd_kafka_message_t>, client: RDKafkaClient, topics: TopicNameCache,
        lastTopic: inout (handle: OpaquePointer?, name: String)?
    ) {
        let code = message.pointee.err
        if code == RD_KAFKA_RESP_ERR_NO_ERROR {
            if let last = lastTopic, last.handle == message.pointee.rkt {
                self = .record(topic: last.name)
            } else {
                let topic = topics.name(of: message.pointee.rkt)
                lastTopic = (message.pointee.rkt, topic)
                self = .record(topic: topic)
            }
        } else if code == RD_KAFKA_RESP_ERR__PARTITION_EOF {
            self = .skip
        } else if code == RD_KAFKA_RESP_ERR__FATAL {
            client.callbacks.reportFatal(client.fatalError ?? KafkaError(code, isFatal: true))
            self = .fatal
        } else {
            let text = rd_kafka_message_errstr(message).map { String(cString: $0) } ?? ""
            let error = KafkaError(code, message: text)
            client.callbacks.logger.warning("consumer: \(error)")
            client.callbacks.errorHandler?(error)
            self = .skip
        }
    }
}
