import PushModel
import PushgateKafka

/// Everything `pushgate deliver` is configured with (SPEC 10.8), parsed and checked: where to connect,
/// which platforms and topics, receipts, timings and bounds. The credentials of each platform are read
/// by its sender's factory (``DeliveryServices``), not here.
public struct DeliveryConfiguration: Sendable {
    /// `bootstrap.servers`.
    public var bootstrapServers: String
    /// The consumer group. Default: `pushgate-deliver`.
    public var groupId: String
    /// The platforms delivered to (their topics are read).
    public var platforms: Set<Platform>
    /// Topic names given for formats (`--topic FORMAT=NAME`); the others have SPEC section 1's names.
    public var topics: [OutputFormat: String]
    /// The device directory. Default: `push.devices`.
    public var devicesTopic: String
    /// Where receipts go. Default: `push.receipts`.
    public var receiptsTopic: String
    /// Which outcomes get a receipt. Default: ``ReceiptSelection/failures``.
    public var receipts: ReceiptSelection
    /// The APNs settings of SPEC 10.3.
    public var apns: APNsSettings
    /// The FCM settings of SPEC 10.4.
    public var fcm: FCMSettings = FCMSettings()
    /// The web push settings of SPEC 10.5.
    public var webpush = WebPushSettings()
    /// Further trusted CA certificates (PEM) for every HTTPS connection.
    public var caFile: String?
    /// The longest wait for a push service's answer. Default: 30 s.
    public var requestTimeout: Duration
    /// Back-off, jitter and `--give-up-after` (default 24 h).
    public var retry: RetryPolicy
    /// Most concurrent requests per platform. Default: 1000.
    public var maxInFlightRequests: Int
    /// Most delivered records read and not finished, all platforms together. Default: 10000.
    public var maxInFlightRecords: Int
    /// librdkafka properties (`-X`), split between consumer and producer by ``KafkaPropertyScope``.
    public var kafkaProperties: [String: String]
    /// The port of `/metrics`, `/health` and `/ready`; `nil`: no HTTP server.
    public var metricsPort: Int?
    /// How long SIGTERM may take in all. Default: 10 s.
    public var shutdownTimeout: Duration
    /// How often finished offsets are committed. Default: 1 s.
    public var commitInterval: Duration
    /// How long a revocation waits for the revoked partitions' records in flight before it commits what is
    /// finished and gives them up. Default: 5 s.
    public var revokeDrainTimeout: Duration

    /// Creates a configuration; the defaults are SPEC 10.8's.
    public init(
        bootstrapServers: String, groupId: String = "pushgate-deliver", platforms: Set<Platform> = [.apns],
        topics: [OutputFormat: String] = [:], devicesTopic: String = "push.devices",
        receiptsTopic: String = "push.receipts", receipts: ReceiptSelection = .failures,
        apns: APNsSettings = APNsSettings(), caFile: String? = nil, requestTimeout: Duration = .seconds(30),
        retry: RetryPolicy = RetryPolicy(), maxInFlightRequests: Int = 1000, maxInFlightRecords: Int = 10_000,
        kafkaProperties: [String: String] = [:], metricsPort: Int? = nil, shutdownTimeout: Duration = .seconds(10),
        commitInterval: Duration = .seconds(1), revokeDrainTimeout: Duration = .seconds(5)
    ) {
        self.bootstrapServers = bootstrapServers
        self.groupId = groupId
        self.platforms = platforms
        self.topics = topics
        self.devicesTopic = devicesTopic
        self.receiptsTopic = receiptsTopic
        self.receipts = receipts
        self.apns = apns
        self.caFile = caFile
        self.requestTimeout = requestTimeout
        self.retry = retry
        self.maxInFlightRequests = maxInFlightRequests
        self.maxInFlightRecords = maxInFlightRecords
        self.kafkaProperties = kafkaProperties
        self.metricsPort = metricsPort
        self.shutdownTimeout = shutdownTimeout
        self.commitInterval = commitInterval
        self.revokeDrainTimeout = revokeDrainTimeout
    }

    /// The topic of `format`: given with `--topic`, else SPEC section 1's.
    public func topic(of format: OutputFormat) -> String { topics[format] ?? format.defaultTopic }

    /// The formats read, in record order: those of the enabled platforms.
    public var deliveredFormats: [OutputFormat] {
        OutputFormat.allCases.filter { format in Platform(delivering: format).map(platforms.contains) ?? false }
    }

    /// The topics read: one per delivered format (two formats may share a topic).
    public var deliveredTopics: [String] {
        var seen: Set<String> = []
        return deliveredFormats.map(topic(of:)).filter { seen.insert($0).inserted }
    }

    /// The format of a record read from `topic` without a `pushgate-format` header.
    public func format(ofTopic topic: String) -> OutputFormat? {
        deliveredFormats.first { self.topic(of: $0) == topic }
    }

    /// The group consumer's configuration.
    public var consumerConfiguration: KafkaConsumerConfiguration {
        KafkaConsumerConfiguration(
            bootstrapServers: bootstrapServers, groupId: groupId, topics: deliveredTopics,
            properties: KafkaPropertyScope.properties(kafkaProperties, for: .consumer))
    }

    /// The receipts producer's configuration.
    public var producerConfiguration: KafkaProducerConfiguration {
        KafkaProducerConfiguration(
            bootstrapServers: bootstrapServers,
            properties: KafkaPropertyScope.properties(kafkaProperties, for: .producer))
    }
}

/// The APNs settings of SPEC 10.3 (`--apns-*`).
public struct APNsSettings: Sendable, Hashable {
    /// The `.p8` key file (PKCS#8 PEM, P-256).
    public var keyFile: String?
    /// The key's 10-character id (JWT `kid`).
    public var keyID: String?
    /// The team's 10-character id (JWT `iss`).
    public var teamID: String?
    /// The bundle id of devices without `app`, and of broadcasts.
    public var bundleID: String?
    /// Replaces `https://api.push.apple.com` (production devices and broadcasts).
    public var endpoint: String?
    /// Replaces `https://api.sandbox.push.apple.com` (development devices).
    public var sandboxEndpoint: String?

    /// Creates the settings.
    public init(
        keyFile: String? = nil, keyID: String? = nil, teamID: String? = nil, bundleID: String? = nil,
        endpoint: String? = nil, sandboxEndpoint: String? = nil
    ) {
        self.keyFile = keyFile
        self.keyID = keyID
        self.teamID = teamID
        self.bundleID = bundleID
        self.endpoint = endpoint
        self.sandboxEndpoint = sandboxEndpoint
    }

    /// Whether every credential of token authentication is given.
    public var hasCredentials: Bool { keyFile != nil && keyID != nil && teamID != nil }

    /// The first credential option missing (`--apns-key-file`, `--apns-key-id`, `--apns-team-id`), if any.
    public var missingCredentialOption: String? {
        if keyFile == nil { return "--apns-key-file" }
        if keyID == nil { return "--apns-key-id" }
        if teamID == nil { return "--apns-team-id" }
        return nil
    }
}

/// The FCM settings of SPEC 10.4 (`--fcm-*`).
public struct FCMSettings: Sendable, Hashable {
    /// The service-account key files, one per Firebase project (`--fcm-credentials`, repeatable).
    public var credentialFiles: [String]
    /// Replaces `https://fcm.googleapis.com`.
    public var endpoint: String?

    /// Creates the settings.
    public init(credentialFiles: [String] = [], endpoint: String? = nil) {
        self.credentialFiles = credentialFiles
        self.endpoint = endpoint
    }

    /// Whether a service account is given.
    public var hasCredentials: Bool { !credentialFiles.isEmpty }
}

/// The web push settings of SPEC 10.5 (`--vapid-key`, `--vapid-subject`, `--webpush-allow-host`).
public struct WebPushSettings: Sendable, Hashable {
    /// The VAPID key files (P-256 PEM), by the name devices give in `app`. Default: none.
    public var vapidKeys: [String: String]
    /// The tokens' `sub`: a `mailto:` or `https:` URI (required with a key).
    public var vapidSubject: String?
    /// Hosts allowed besides the default push services (`*.` prefix: a domain and its subdomains). Default: none.
    public var allowHosts: [String]

    /// Creates the settings.
    public init(vapidKeys: [String: String] = [:], vapidSubject: String? = nil, allowHosts: [String] = []) {
        self.vapidKeys = vapidKeys
        self.vapidSubject = vapidSubject
        self.allowHosts = allowHosts
    }

    /// Whether a VAPID key is given.
    public var hasCredentials: Bool { !vapidKeys.isEmpty }
}
