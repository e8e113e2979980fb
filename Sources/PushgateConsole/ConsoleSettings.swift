import PushgateKafka

/// What `pushgate console` connects to and watches: the topics and group of the worker, and the
/// connection, from the same settings as `pushgate run`.
public struct ConsoleSettings: Sendable {
    /// The bootstrap servers.
    public var bootstrapServers: String
    /// Whether they are the console's own embedded broker.
    public var embeddedBroker: Bool
    /// The input topic, where re-driven records go.
    public var inputTopic: String
    /// The dead-letter topic.
    public var deadLetterTopic: String
    /// Each format's output topic, in the order of section 1 of the specification.
    public var outputTopics: [(format: String, topic: String)]
    /// The worker group whose lag is shown.
    public var groupId: String
    /// The formats an Android-routed payload gets, for the editor's translation.
    public var androidFormats: [String]
    /// Whether unknown fields are warnings, for the editor's translation.
    public var lenient: Bool
    /// How the console's readers connect (librdkafka properties of `-X` for consumers).
    public var consumerProperties: [String: String]
    /// How the re-driver's producer connects and partitions: the worker's producer defaults (Java's key
    /// hashing, so a re-driven record goes where its key's records go; a record size limit that fits the
    /// largest payload), then the librdkafka properties of `-X` for producers.
    public var producerProperties: [String: String]
    /// How often the console lists the partitions of the topics it reads (the dead-letter topic, the
    /// output topics), to read those that appeared since it started: a topic created later, partitions
    /// added to one. Default: 10 seconds.
    public var partitionCheckInterval: Duration = .seconds(10)

    /// Creates settings.
    public init(
        bootstrapServers: String, embeddedBroker: Bool, inputTopic: String, deadLetterTopic: String,
        outputTopics: [(format: String, topic: String)], groupId: String, androidFormats: [String], lenient: Bool,
        consumerProperties: [String: String], producerProperties: [String: String]
    ) {
        self.bootstrapServers = bootstrapServers
        self.embeddedBroker = embeddedBroker
        self.inputTopic = inputTopic
        self.deadLetterTopic = deadLetterTopic
        self.outputTopics = outputTopics
        self.groupId = groupId
        self.androidFormats = androidFormats
        self.lenient = lenient
        self.consumerProperties = consumerProperties
        self.producerProperties = producerProperties
    }

    /// The configuration of the console's readers: no subscription, no commits, the console's own group
    /// id (the worker group's committed offsets are read by ``watcher``).
    var reader: KafkaConsumerConfiguration {
        KafkaConsumerConfiguration(
            bootstrapServers: bootstrapServers, groupId: "pushgate-console", topics: [],
            properties: consumerProperties)
    }

    /// The configuration of the live watch: the worker group's id, to read its committed offsets
    /// without joining it.
    var watcher: KafkaConsumerConfiguration {
        KafkaConsumerConfiguration(
            bootstrapServers: bootstrapServers, groupId: groupId, topics: [], properties: consumerProperties)
    }

    /// The re-driver's producer: idempotent, `acks=all` (the producer's defaults).
    var producer: KafkaProducerConfiguration {
        KafkaProducerConfiguration(bootstrapServers: bootstrapServers, properties: producerProperties)
    }

    /// The topics the live view shows, each with its role, in SPEC order: input, outputs, dead letters.
    var watchedTopics: [(topic: String, role: String)] {
        [(inputTopic, "input")] + outputTopics.map { ($0.topic, $0.format) }
            + [(deadLetterTopic, "dead-letters")]
    }
}
