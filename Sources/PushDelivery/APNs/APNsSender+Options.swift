import Logging

extension APNsSender {
    /// A sender made from the command line's APNs options (SPEC 10.3, 10.8), reading the key file now: a missing,
    /// unreadable or wrong key, an empty id, a bad bundle id or an endpoint that is not an `https` URL is a
    /// ``SenderOptionError`` naming its option (`--apns-key-file`, `--apns-key-id`, `--apns-team-id`,
    /// `--apns-bundle-id`, `--apns-endpoint`, `--apns-sandbox-endpoint`); `nil` endpoints are Apple's.
    public static func make(
        keyFile: String, keyID: String, teamID: String, bundleID: String? = nil, endpoint: String? = nil,
        sandboxEndpoint: String? = nil, http: PushHTTPClient, logger: Logger
    ) throws(SenderOptionError) -> APNsSender {
        let configuration = try APNsConfiguration(
            keyID: keyID, teamID: teamID, bundleID: bundleID,
            productionEndpoint: endpoint.map { text throws(SenderOptionError) in
                try APNsEndpoint(text, option: "--apns-endpoint")
            } ?? .production,
            sandboxEndpoint: sandboxEndpoint.map { text throws(SenderOptionError) in
                try APNsEndpoint(text, option: "--apns-sandbox-endpoint")
            } ?? .sandbox)
        let key = try APNsSigningKey.load(path: keyFile)
        return APNsSender(
            configuration: configuration, providerToken: APNsProviderToken(key: key, keyID: keyID, teamID: teamID),
            http: http, logger: logger)
    }
}
