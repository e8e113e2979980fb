import Logging
import PushDelivery
import PushWorker
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
        /// The shared HTTP client, closed by a background service; closed by ``close()`` instead when the
        /// command stops before the service group runs (an HTTP client must be shut down before its deinit).
        let http: PushHTTPClient

        /// Closes the shared HTTP client, for a command that stops before running the service group.
        func close() async {
            await http.shutdown()
        }
    }

    /// Builds the directory, its reader and one `PushSender` per platform of `configuration`, reading the
    /// credential files now.
    /// - Throws: ``SenderOptionError`` naming the option of a credential file or endpoint that cannot be used
    ///   (the HTTP client made by then is closed first).
    static func make(
        _ configuration: DeliveryConfiguration, metrics: DeliveryPrometheusMetrics, logger: Logger
    ) async throws -> Wiring {
        let directory = DeviceDirectory(metricsFactory: metrics.factory)
        let rules = DirectoryRules(
            apnsBundleIDGiven: configuration.apns.bundleID != nil,
            fcmCredentialCount: configuration.platforms.contains(.fcm) ? configuration.fcm.credentialFiles.count : 0,
            vapidKeyCount: configuration.platforms.contains(.webpush) ? configuration.webpush.vapidKeys.count : 0)
        let reader = DirectoryReader(
            topic: configuration.devicesTopic, bootstrapServers: configuration.bootstrapServers,
            properties: KafkaPropertyScope.properties(configuration.kafkaProperties, for: .consumer),
            directory: directory, parser: DirectoryRecordParser(rules: rules), logger: logger)
        let http = try PushHTTPClient(
            configuration: PushHTTPConfiguration(
                caFiles: configuration.caFile.map { [$0] } ?? [], requestTimeout: configuration.requestTimeout))
        let senders: [any PushSender]
        do {
            // Credential files are read here: on a thread of their own, not one of the cooperative pool's.
            senders = try await DedicatedThread.run(name: "pushgate-credentials") {
                try makeSenders(configuration, http: http, logger: logger)
            }
        } catch {
            // An HTTP client must be shut down before its deinit, which would otherwise stop the process.
            await http.shutdown()
            throw error
        }
        return Wiring(
            services: DeliveryServices(
                directory: directory, directoryCaughtUp: { await reader.waitUntilCaughtUp() }, senders: senders),
            background: [HTTPClientClosing(http: http), reader], http: http)
    }

    /// One sender per platform of `configuration`, reading its credential files now.
    private static func makeSenders(
        _ configuration: DeliveryConfiguration, http: PushHTTPClient, logger: Logger
    ) throws -> [any PushSender] {
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
        if configuration.platforms.contains(.fcm) {
            senders.append(
                try FCMSender.make(
                    credentialFiles: configuration.fcm.credentialFiles, endpoint: configuration.fcm.endpoint,
                    http: http,
                    logger: logger))
        }
        if configuration.platforms.contains(.webpush) {
            let webpush = configuration.webpush
            senders.append(
                try WebPushSender.make(
                    keyFiles: webpush.vapidKeys, subject: webpush.vapidSubject, allowedHosts: webpush.allowHosts,
                    http: http, logger: logger))
        }
        return senders
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
