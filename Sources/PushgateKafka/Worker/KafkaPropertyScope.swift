/// Which librdkafka client a property is for.
public enum KafkaClientRole: String, Sendable, CaseIterable {
    /// The group consumer.
    case consumer
    /// The producer.
    case producer
}

/// Gives each client only the `-X` properties that belong to it, so that neither logs librdkafka's
/// "Configuration property X is a consumer property and will be ignored by this producer instance"
/// warning at every start.
///
/// A property prefixed `consumer.` or `producer.` (Kafka Connect's prefixes) goes, without the prefix, to
/// that client only, and wins over the same unprefixed property for it. An unprefixed property goes to
/// both clients unless librdkafka marks it as the other client's only (`C` or `P` in the C/P column of
/// librdkafka 2.0.2's CONFIGURATION.md, global and topic properties; `KafkaPropertyScopeTests` compares
/// these sets with what the linked librdkafka prints at run time).
public enum KafkaPropertyScope {
    /// Properties librdkafka 2.0.2 applies to consumers only (`C`), aliases included.
    public static let consumerOnly: Set<String> = [
        "auto.commit.enable", "auto.commit.interval.ms", "auto.offset.reset", "check.crcs",
        "consume.callback.max.messages", "consume_cb", "coordinator.query.interval.ms", "enable.auto.commit",
        "enable.auto.offset.store", "enable.partition.eof", "fetch.error.backoff.ms", "fetch.max.bytes",
        "fetch.message.max.bytes", "fetch.min.bytes", "fetch.wait.max.ms", "group.id", "group.instance.id",
        "group.protocol.type", "heartbeat.interval.ms", "isolation.level", "max.partition.fetch.bytes",
        "max.poll.interval.ms", "offset.store.method", "offset.store.path", "offset.store.sync.interval.ms",
        "offset_commit_cb", "partition.assignment.strategy", "queued.max.messages.kbytes",
        "queued.min.messages", "rebalance_cb", "session.timeout.ms",
    ]

    /// Properties librdkafka 2.0.2 applies to producers only (`P`), aliases included.
    public static let producerOnly: Set<String> = [
        "acks", "batch.num.messages", "batch.size", "compression.codec", "compression.level",
        "compression.type", "delivery.report.only.error", "delivery.timeout.ms", "dr_cb", "dr_msg_cb",
        "enable.gapless.guarantee", "enable.idempotence", "linger.ms", "message.send.max.retries",
        "message.timeout.ms", "msg_order_cmp", "partitioner", "partitioner_cb", "produce.offset.report",
        "queue.buffering.backpressure.threshold", "queue.buffering.max.kbytes", "queue.buffering.max.messages",
        "queue.buffering.max.ms", "queuing.strategy", "request.required.acks", "request.timeout.ms", "retries",
        "retry.backoff.ms", "sticky.partitioning.linger.ms", "transaction.timeout.ms", "transactional.id",
    ]

    /// The properties of `properties` (as given with `-X`, prefixed or not) that `role` takes, unprefixed.
    public static func properties(_ properties: [String: String], for role: KafkaClientRole) -> [String: String] {
        let others: Set<String> = role == .consumer ? producerOnly : consumerOnly
        var result: [String: String] = [:]
        var prefixed: [String: String] = [:]
        for (name, value) in properties {
            if let (prefixRole, bare) = split(name) {
                if prefixRole == role { prefixed[bare] = value }
            } else if !others.contains(name) {
                result[name] = value
            }
        }
        return result.merging(prefixed) { $1 }
    }

    /// The client a `consumer.`/`producer.` prefix names and the property without it; `nil` when unprefixed.
    static func split(_ name: String) -> (KafkaClientRole, String)? {
        for role in KafkaClientRole.allCases {
            let prefix = role.rawValue + "."
            if name.hasPrefix(prefix), name.count > prefix.count { return (role, String(name.dropFirst(prefix.count))) }
        }
        return nil
    }
}
