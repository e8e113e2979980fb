import PushDelivery
import PushModel

extension Settings {
    /// Every setting of `pushgate deliver` (SPEC 10.8), defined once as those of `run` are: its options
    /// (``DeliverOptions``), its help and the table of docs/configuration.md come from here. Flags and
    /// `PUSHGATE_*` variables only: `deliver` reads no configuration file. The settings it shares with `run`
    /// (`--topic`, `-X`, `--metrics-port`, logging) are `run`'s definitions.
    public enum Deliver {
        /// The defaults of ``DeliveryConfiguration``, where they are defined.
        private static let defaults = DeliveryConfiguration(bootstrapServers: "")

        /// `--bootstrap-servers` (required).
        public static let bootstrapServers = Setting<String?>(
            "bootstrap-servers", inFile: false, default: nil, described: "none: required",
            summary: "Kafka bootstrap servers (host:port,...)", parser: .optional(.text))

        /// `--group-id`.
        public static let groupId = Setting<String>(
            "group-id", inFile: false, default: defaults.groupId, summary: "The consumer group", parser: .text)

        /// `--platforms`.
        public static let platforms = Setting<Set<Platform>?>(
            "platforms", inFile: false, default: nil, described: "those whose credentials are given",
            summary: "The platforms to deliver to, comma-separated: apns, fcm, webpush", valueName: "PLATFORMS",
            parser: .optional(.platforms))

        /// `--devices-topic`.
        public static let devicesTopic = Setting<String>(
            "devices-topic", inFile: false, default: defaults.devicesTopic, summary: "The device directory topic",
            parser: .text)

        /// `--receipts-topic`.
        public static let receiptsTopic = Setting<String>(
            "receipts-topic", inFile: false, default: defaults.receiptsTopic, summary: "The receipts topic",
            parser: .text)

        /// `--receipts`.
        public static let receipts = Setting<ReceiptSelection>(
            "receipts", inFile: false, default: defaults.receipts,
            summary: "Which outcomes get a receipt: " + ReceiptSelection.names, parser: .choice)

        /// `--apns-key-file`.
        public static let apnsKeyFile = Setting<String?>(
            "apns-key-file", inFile: false, default: nil, described: "none",
            summary: "The APNs signing key (.p8, PKCS#8 PEM), read at start", valueName: "FILE",
            parser: .optional(.text))

        /// `--apns-key-id`.
        public static let apnsKeyID = Setting<String?>(
            "apns-key-id", inFile: false, default: nil, described: "none", summary: "The APNs key's id (JWT kid)",
            parser: .optional(.text))

        /// `--apns-team-id`.
        public static let apnsTeamID = Setting<String?>(
            "apns-team-id", inFile: false, default: nil, described: "none",
            summary: "The Apple developer team id (JWT iss)", parser: .optional(.text))

        /// `--apns-bundle-id`.
        public static let apnsBundleID = Setting<String?>(
            "apns-bundle-id", inFile: false, default: nil, described: "none: devices name their app",
            summary: "The bundle id of APNs devices without app, and of broadcasts", parser: .optional(.text))

        /// `--apns-endpoint`.
        public static let apnsEndpoint = Setting<String?>(
            "apns-endpoint", inFile: false, default: nil, described: "`https://api.push.apple.com`",
            summary: "The APNs endpoint of production devices and broadcasts", valueName: "URL",
            parser: .optional(.httpsURL))

        /// `--apns-sandbox-endpoint`.
        public static let apnsSandboxEndpoint = Setting<String?>(
            "apns-sandbox-endpoint", inFile: false, default: nil, described: "`https://api.sandbox.push.apple.com`",
            summary: "The APNs endpoint of development devices", valueName: "URL", parser: .optional(.httpsURL))

        /// `--fcm-credentials`, repeatable.
        public static let fcmCredentials = Setting<[String]>(
            "fcm-credentials", inFile: false, default: [], described: "none",
            summary: "A Firebase service-account key file (JSON), read at start; repeatable, one per project",
            valueName: "FILE", option: "`--fcm-credentials FILE` (repeatable)",
            environmentNote: " (one file a line, or `;`-separated)", parser: .fileList)

        /// `--fcm-endpoint`.
        public static let fcmEndpoint = Setting<String?>(
            "fcm-endpoint", inFile: false, default: nil, described: "`https://fcm.googleapis.com`",
            summary: "The FCM HTTP v1 endpoint", valueName: "URL", parser: .optional(.httpsURL))

        /// `--vapid-key NAME=FILE` (repeatable).
        public static let vapidKeys = MapSetting<[String: String]>(
            "vapid-keys", flag: "--vapid-key", default: [:], described: "none",
            summary: "A web push VAPID key (repeatable): its name (the app devices give) and its P-256 private key "
                + "file (PEM), read at start",
            valueName: "NAME=FILE", option: "`--vapid-key NAME=FILE` (repeatable)", environmentNote: " (`a=f1;b=f2`)",
            fileNote: "", variableHelp: " (NAME=FILE entries separated by ';' or newlines)",
            environmentSeparators: [";"], parse: Self.vapidKeyEntries)

        /// `--vapid-subject`.
        public static let vapidSubject = Setting<String?>(
            "vapid-subject", inFile: false, default: nil, described: "none: required with --vapid-key",
            summary: "The VAPID tokens' subject: a mailto: address or an https: URL", valueName: "URI",
            parser: .optional(.text))

        /// `--webpush-allow-host HOST` (repeatable).
        public static let webpushAllowHosts = Setting<[String]>(
            "webpush-allow-host", inFile: false, default: [],
            described: "none: only the browsers' push services (SPEC 10.5)",
            summary: "A host web push endpoints may name besides the browsers' push services (repeatable; *.DOMAIN: "
                + "the domain and its subdomains)",
            valueName: "HOST", option: "`--webpush-allow-host HOST` (repeatable)",
            environmentNote: " (`h1,h2`)", variableHelp: " (hosts separated by ',', ';' or newlines)",
            parser: .hostList)

        /// `--ca-file`.
        public static let caFile = Setting<String?>(
            "ca-file", inFile: false, default: nil, described: "none: the system's",
            summary: "Further trusted CA certificates (PEM) for every HTTPS connection", valueName: "FILE",
            parser: .optional(.text))

        /// `--request-timeout`.
        public static let requestTimeout = Setting<Duration>(
            "request-timeout", inFile: false, default: defaults.requestTimeout,
            summary: "How long a push service may take to answer before the request is retried",
            valueName: "DURATION", parser: .duration(.milliseconds(100)...Duration.seconds(3600)))

        /// `--give-up-after`.
        public static let giveUpAfter = Setting<Duration>(
            "give-up-after", inFile: false, default: defaults.retry.giveUpAfter,
            summary: "How long after its first try a push without a final answer is expired",
            valueName: "DURATION", parser: .duration(.seconds(1)...Duration.seconds(30 * 86_400)))

        /// `--max-in-flight-requests`.
        public static let maxInFlightRequests = Setting<Int>(
            "max-in-flight-requests", inFile: false, default: defaults.maxInFlightRequests,
            summary: "Most concurrent requests per platform", parser: .integer(1...100_000))

        /// `--shutdown-timeout`.
        public static let shutdownTimeout = Setting<Duration>(
            "shutdown-timeout", inFile: false, default: defaults.shutdownTimeout,
            summary: "How long SIGTERM or SIGINT may take to stop in all; pushes without a final outcome by "
                + "then are abandoned, uncommitted, and sent again by the next member",
            valueName: "DURATION", parser: .duration(.milliseconds(100)...Duration.seconds(3600)))

        /// Every setting of `pushgate deliver`, in the order of its help and of its settings table.
        public static let all: [any SettingDefinition] = [
            bootstrapServers, groupId, platforms, Settings.topics, devicesTopic, receiptsTopic, receipts, apnsKeyFile,
            apnsKeyID, apnsTeamID, apnsBundleID, apnsEndpoint, apnsSandboxEndpoint, fcmCredentials,
            fcmEndpoint, vapidKeys, vapidSubject, webpushAllowHosts, caFile, requestTimeout,
            giveUpAfter, maxInFlightRequests, Settings.kafkaProperties, Settings.metricsPort, Settings.logLevel,
            Settings.logFormat, shutdownTimeout,
        ]

        /// The table of `pushgate deliver` settings in docs/configuration.md (Markdown), one row per setting
        /// of ``all``; `DeliverSettingsTests` fails when the page's table differs.
        public static var markdownTable: String {
            var lines = ["| `deliver` option | environment | default |", "|---|---|---|"]
            for setting in all.map(\.documentation) {
                let option = setting.option ?? "`\(setting.flag)`"
                lines.append(
                    "| \(option) | `\(setting.environmentVariable)`\(setting.environmentNote) | \(setting.defaultDescription) |"
                )
            }
            return lines.joined(separator: "\n")
        }

        private static func vapidKeyEntries(_ entries: [SettingEntry]) throws(SettingError) -> [String: String] {
            var keys: [String: String] = [:]
            for entry in entries {
                guard !entry.name.isEmpty, entry.name.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) else {
                    throw SettingError("\(entry.source): a VAPID key needs a name (NAME=FILE)")
                }
                guard !entry.value.isEmpty else { throw SettingError("\(entry.source): \(entry.name)= needs a file") }
                keys[entry.name] = entry.value
            }
            return keys
        }

        /// Every variable of `pushgate deliver`, for its help text.
        public static var environmentVariableList: String {
            all.map { $0.environmentVariable + $0.documentation.variableHelp }.joined(separator: ", ")
        }
    }
}

extension ReceiptSelection: SettingChoice {}

extension SettingParser where Value == Set<Platform> {
    /// `--platforms`: a comma-separated list of platform names (`apns`, `fcm`, `webpush`), exact lower-case
    /// names, a repeat allowed.
    public static var platforms: Self {
        Self(
            parse: { text, name throws(SettingError) in
                var platforms: Set<Platform> = []
                for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let platform = Platform(rawValue: String(part)) else {
                        throw SettingError(
                            "\(name): '\(text)' is not a comma-separated list of "
                                + Platform.allCases.map(\.rawValue).joined(separator: ", ")
                                + " (exact lower-case names, no spaces)")
                    }
                    platforms.insert(platform)
                }
                return platforms
            },
            describe: { "`" + $0.map(\.rawValue).sorted().joined(separator: ",") + "`" })
    }
}

extension SettingParser where Value == [String] {
    /// A list of file paths: in a variable, one a line or `;`-separated (the convention of
    /// ``EnvironmentSettings``); each non-empty.
    public static var fileList: Self {
        Self(
            parse: { text, _ in EnvironmentSettings(["list": text]).list("list") },
            check: { paths, name throws(SettingError) in
                guard !paths.contains(where: \.isEmpty) else { throw SettingError("\(name) must name a file") }
            },
            describe: { $0.isEmpty ? "none" : $0.joined(separator: ";") })
    }

    /// A list of hosts: entries separated by `,`, `;` or whitespace, empty ones dropped (each is checked when the
    /// sender is made).
    public static var hostList: Self {
        Self(
            parse: { text, _ in
                text.split(whereSeparator: { $0 == "," || $0 == ";" || $0.isWhitespace }).map(String.init)
            },
            describe: { $0.isEmpty ? "none" : $0.joined(separator: ", ") })
    }
}

extension SettingParser where Value == String {
    /// An absolute `https` URL with a host (an endpoint: SPEC 10.3 takes endpoints from configuration only).
    public static var httpsURL: Self {
        Self(
            parse: { text, _ in text },
            check: { text, name throws(SettingError) in
                let lower = text.lowercased()
                guard lower.hasPrefix("https://"), lower.count > "https://".count,
                    !lower.dropFirst("https://".count).hasPrefix("/")
                else { throw SettingError("\(name) must be an https URL with a host, not '\(text)'") }
            },
            describe: { "`\($0)`" })
    }
}
