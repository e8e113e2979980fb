import Logging

extension WebPushSender {
    /// A sender made from the command line's web push options (SPEC 10.5, 10.8), reading the key files now: a
    /// missing, unreadable or wrong key file, a subject that is not a `mailto:` or `https:` URI or an allowed host
    /// that is not a host is a ``SenderOptionError`` naming its option (`--vapid-key`, `--vapid-subject`,
    /// `--webpush-allow-host`).
    /// - Parameters:
    ///   - keyFiles: `--vapid-key NAME=FILE`, by name.
    ///   - subject: `--vapid-subject`.
    ///   - allowedHosts: `--webpush-allow-host`, added to the default push services.
    public static func make(
        keyFiles: [String: String], subject: String?, allowedHosts: [String] = [], http: PushHTTPClient,
        logger: Logger
    ) throws(SenderOptionError) -> WebPushSender {
        guard !keyFiles.isEmpty else {
            throw SenderOptionError(option: "--vapid-key", message: "is required for webpush")
        }
        guard let subject else {
            throw SenderOptionError(option: "--vapid-subject", message: "is required with --vapid-key")
        }
        try checkSubject(subject)
        var rules: [WebPushAllowList.Rule] = []
        for host in allowedHosts { rules.append(try WebPushAllowList.rule(host)) }
        var keys: [String: VAPIDToken] = [:]
        for (name, path) in keyFiles.sorted(by: { $0.key < $1.key }) {
            keys[name] = VAPIDToken(key: try VAPIDKey.load(name: name, path: path), subject: subject)
        }
        return WebPushSender(keys: keys, allowList: WebPushAllowList(adding: rules), http: http, logger: logger)
    }

    /// Checks `--vapid-subject`: `mailto:` and an address with `@`, or an `https://` URL of a host; printable ASCII
    /// without spaces (push services refuse other subjects: DELIVERY.md C3).
    public static func checkSubject(_ subject: String) throws(SenderOptionError) {
        let lower = subject.lowercased()
        let printable = subject.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        let isMail = lower.hasPrefix("mailto:") && subject.dropFirst(7).contains("@") && !subject.hasSuffix("@")
        let isWeb = lower.hasPrefix("https://") && subject.count > 8 && !subject.dropFirst(8).hasPrefix("/")
        guard printable, isMail || isWeb else {
            throw SenderOptionError(
                option: "--vapid-subject",
                message: "\"\(subject)\" is not a mailto: address or an https:// URL (the contact push services use)")
        }
    }
}
