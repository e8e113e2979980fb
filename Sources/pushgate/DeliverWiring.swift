import Logging
import PushDelivery
import PushgateKafka
import PushgateMetrics
import ServiceLifecycle

/// Where `pushgate deliver` builds what it delivers with from its configuration: the device directory and
/// its reader, the shared HTTP/2 client and one sender per platform.
enum DeliverWiring {
    /// What the worker runs with: its services, and the services to run beside it in the service group
    /// (the directory's reader, the HTTP client's closing), started before it and stopped after it.
    struct Wiring {
        var services: DeliveryServices
        var background: [any Service]
    }

    /// Builds the directory, its reader and one `PushSender` per platform of `configuration`, reading the
    /// credential files now.
    /// - Throws: ``SenderOptionError`` naming the option of a credential file or endpoint that cannot be used.
    static func make(
        _ configuration: DeliveryConfiguration, metrics: DeliveryPrometheusMetrics, logger: Logger
    ) throws -> Wiring {
        let directory = DeviceDirectory(metricsFactory: metrics.factory)
        let rules = DirectoryRules(apnsBundleIDGiven: configuration.apns.bundleID != nil)
        let reader = DirectoryReader(
            topic: configuration.devicesTopic, bootstrapServers: configuration.bootstrapServers,
            properties: KafkaPropertyScope.properties(configuration.kafkaProperties, for: .consumer),
            directory: directory, parser: DirectoryRecordParser(rules: rules), logger: logger)
        let http = try PushHTTPClient(
            configuration: PushHTTPConfiguration(
                caFiles: configuration.caFile.map { [$0] } ?? [], requestTimeout: configuration.requestTimeout))
        var senders: [any PushSender] = []
        if configuration.platforms.contains(.apns) {
            let apns = configuration.apns
            guard let keyFile = apns.keyFile, let keyID = apns.keyID, let teamID = apns.teamID else {
                throw SenderOptionError(
                    option: apns.missingCredentialOption ?? "--apns-key-file", message: "is required for apns")
            }
            senders.append(
                try APNsSender.make(
                    keyFile: keyFile, keyID: keyID, teamID: teamID, bundleID: apns.bundleID,
                    endpoint: apns.endpoint, sandboxEndpoint: apns.sandboxEndpoint, http: http, logger: logger))
        }
        return Wiring(
            services: DeliveryServices(
                directory: directory, directoryCaughtUp: { await reader.waitUntilCaughtUp() }, senders: senders),
            background: [HTTPClientClosing(http: http), reader])
    }
}

/// Closes the shared HTTP client once graceful shutdown reaches it, after the worker (services stop in
/// the reverse order of their start).
private struct HTTPClientClosing: Service {
    let http: PushHTTPClient

    func run() async throws {
        try? await gracefulShutdown()
        await http.shutdown()
    }
}
