import PushTranslation
import PushgateKafka

/// Everything a ``PushWorker`` needs: where Kafka is, what to read, how to translate, how much to buffer.
public struct PushWorkerConfiguration: Sendable {
    /// `bootstrap.servers` of the Kafka cluster.
    public var bootstrapServers: String
    /// The consumer group. Default: `pushgate`.
    public var groupId: String
    /// The input topic. Default: `push.unified`.
    public var inputTopic: String
    /// Output and dead-letter topics, leniency and payload limit.
    public var translator: TranslatorConfiguration
    /// librdkafka properties (`-X key=value`), after pushgate's defaults, each given to the client it
    /// belongs to (``KafkaPropertyScope``: `consumer.`/`producer.` prefixes, consumer-only and
    /// producer-only names). `enable.idempotence`, `acks`, `enable.auto.commit` and
    /// `enable.auto.offset.store` cannot be overridden. Default: none.
    public var kafkaProperties: [String: String]
    /// The most input records whose outputs are not all acknowledged yet (backpressure). Default: 4000.
    public var maxInFlightRecords: Int
    /// How often finished offsets are committed. Default: 500 ms.
    public var commitInterval: Duration
    /// How long a graceful shutdown waits for records in flight before giving up on them (they are then
    /// not committed, and are read again by the next worker). Default: 30 s.
    public var drainTimeout: Duration
    /// How long a graceful shutdown may take in all, whatever the cluster does (SPEC 7): waiting for
    /// records in flight, the last commit, the producer's flush and leaving the group each get a share,
    /// and what is not done by then is given up (read again by the next member). Default: 30 s.
    public var shutdownTimeout: Duration
    /// How long a revoke waits for the revoked partitions' records in flight before handing them over
    /// uncommitted. Default: 10 s.
    public var revokeDrainTimeout: Duration
    /// `statistics.interval.ms` of both clients; 0 turns statistics off. Default: 0.
    public var statisticsIntervalMs: Int
    /// The port of the `/metrics`, `/health` and `/ready` endpoints; `nil` runs no HTTP server. Default: nil.
    public var metricsPort: Int?

    /// Creates a configuration; every argument but the bootstrap servers has the documented default.
    public init(
        bootstrapServers: String,
        groupId: String = "pushgate",
        inputTopic: String = TranslatorConfiguration.defaultInputTopic,
        translator: TranslatorConfiguration = TranslatorConfiguration(),
        kafkaProperties: [String: String] = [:],
        maxInFlightRecords: Int = 4000,
        commitInterval: Duration = .milliseconds(500),
        drainTimeout: Duration = .seconds(30),
        revokeDrainTimeout: Duration = .seconds(10),
        shutdownTimeout: Duration = .seconds(30),
        statisticsIntervalMs: Int = 0,
        metricsPort: Int? = nil
    ) {
        self.bootstrapServers = bootstrapServers
        self.groupId = groupId
        self.inputTopic = inputTopic
        self.translator = translator
        self.kafkaProperties = kafkaProperties
        self.maxInFlightRecords = maxInFlightRecords
        self.commitInterval = commitInterval
        self.drainTimeout = drainTimeout
        self.revokeDrainTimeout = revokeDrainTimeout
        self.shutdownTimeout = shutdownTimeout
        self.statisticsIntervalMs = statisticsIntervalMs
        self.metricsPort = metricsPort
    }

    /// Producer defaults of the worker, before ``kafkaProperties``: Java-compatible key hashing
    /// (`murmur2_random`), a record size limit that fits a dead letter of the largest accepted payload
    /// with its headers (`pushgate-errors` alone may take about 66 KiB), and batches that wait up to
    /// 20 ms to fill (`linger.ms`, librdkafka's default 5): fuller batches cost the producer, the broker
    /// and the pipeline thread less per record, while the in-flight bound still lets through about
    /// `--max-in-flight` inputs per linger, above what one worker's pipeline thread wrote in the
    /// pipeline benchmark (docs/configuration.md).
    public var producerDefaults: [String: String] {
        [
            "partitioner": "murmur2_random",
            "message.max.bytes": String(max(1_000_000, translator.maxPayloadBytes + 256 * 1024)),
            "linger.ms": String(Self.lingerMs),
        ]
    }

    /// How long the producer lets a batch wait to fill, by default (`linger.ms`).
    public static let lingerMs = 20

    /// The largest record the producer writes (`message.max.bytes`, given or default), less room for
    /// Kafka's own framing.
    var producerRecordLimit: Int {
        let setting = producerProperties["message.max.bytes"] ?? producerDefaults["message.max.bytes"] ?? "1000000"
        return (Int(setting) ?? 1_000_000) - 1024
    }

    /// The producer's share of ``kafkaProperties``.
    var producerProperties: [String: String] { KafkaPropertyScope.properties(kafkaProperties, for: .producer) }

    /// The producer's configuration: ``producerDefaults``, then its share of ``kafkaProperties``.
    var producerConfiguration: KafkaProducerConfiguration {
        KafkaProducerConfiguration(
            bootstrapServers: bootstrapServers, properties: producerDefaults.merging(producerProperties) { $1 },
            statisticsIntervalMs: statisticsIntervalMs)
    }

    /// The group consumer's configuration: ``groupId`` reading ``inputTopic``, commits waiting at most
    /// ``commitTimeout``.
    var consumerConfiguration: KafkaConsumerConfiguration {
        KafkaConsumerConfiguration(
            bootstrapServers: bootstrapServers, groupId: groupId, topics: [inputTopic],
            properties: KafkaPropertyScope.properties(kafkaProperties, for: .consumer),
            statisticsIntervalMs: statisticsIntervalMs,
            commitTimeoutMs: Int32((commitTimeout / .milliseconds(1)).rounded(.up)))
    }

    /// The longest any commit waits for the coordinator: 10 s, and at most the shutdown's first share
    /// (``ShutdownBudget/Step/drained``). A periodic commit or a revocation's commit holds the consumer's
    /// poll thread while it waits, and a shutdown that starts meanwhile can make its own last commit only
    /// after it: bounded so, it is over by the time the stop sequence needs the thread.
    var commitTimeout: Duration {
        min(.seconds(10), shutdownTimeout * ShutdownBudget.Step.drained.share)
    }

    /// How long a revocation waits for the revoked partitions' records in flight: ``revokeDrainTimeout``,
    /// and at most the shutdown's first share, as it holds the poll thread too (see ``commitTimeout``).
    var revocationDrainTimeout: Duration {
        min(revokeDrainTimeout, shutdownTimeout * ShutdownBudget.Step.drained.share)
    }
}
