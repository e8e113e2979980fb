/// The hosts a subscription's endpoint may name (SPEC 10.5): by default the browsers' push services, and those
/// `--webpush-allow-host` adds. An endpoint whose host no rule allows is `rejected` with `endpoint_not_allowed` and
/// nothing connects to it: the directory is another application's data.
///
/// Hosts are compared exactly, after ``WebPushEndpoint`` has read them strictly and lowercased them: no DNS lookup,
/// no IDNA mapping, no trailing-dot folding, no other spelling of an address (`[::1]` allows `[::1]`, not
/// `[0:0:0:0:0:0:0:1]`; `127.0.0.1` does not allow `localhost`).
public struct WebPushAllowList: Sendable, Hashable {
    /// One allowed host, or family of hosts.
    public enum Rule: Sendable, Hashable, CustomStringConvertible {
        /// Exactly this host (a DNS name, a dotted-quad IPv4 address or a bracketed IPv6 address).
        case host(String)
        /// This domain and every host below it (`--webpush-allow-host *.example.com`).
        case domainAndSubdomains(String)
        /// Every host below this domain, not the domain itself (the defaults: hosts ending in `.push.apple.com`).
        case subdomains(String)

        /// The rule as the option writes it (`*.` for a domain and its subdomains).
        public var description: String {
            switch self {
            case .host(let host): host
            case .domainAndSubdomains(let domain): "*." + domain
            case .subdomains(let domain): "(any host ending in ." + domain + ")"
            }
        }

        /// Whether `host` (canonical, as ``WebPushEndpoint/host``) is allowed by this rule.
        public func allows(_ host: String) -> Bool {
            switch self {
            case .host(let allowed): host == allowed
            case .domainAndSubdomains(let domain): host == domain || host.hasSuffix("." + domain)
            case .subdomains(let domain): host.hasSuffix("." + domain)
            }
        }
    }

    /// The push services of SPEC 10.5: hosts ending in `.push.apple.com`, `.push.services.mozilla.com` and
    /// `.notify.windows.com`, and `fcm.googleapis.com`.
    public static let defaultRules: [Rule] = [
        .subdomains("push.apple.com"), .subdomains("push.services.mozilla.com"), .subdomains("notify.windows.com"),
        .host("fcm.googleapis.com"),
    ]

    /// The rules, the defaults first.
    public let rules: [Rule]

    /// The defaults and `added` (``rule(_:)`` of each `--webpush-allow-host`).
    public init(adding added: [Rule] = []) {
        rules = Self.defaultRules + added
    }

    /// Whether an endpoint may be requested.
    public func allows(_ endpoint: WebPushEndpoint) -> Bool {
        rules.contains { $0.allows(endpoint.host) }
    }

    /// Reads one `--webpush-allow-host` value: a host (`push.example.com`, `127.0.0.1`, `::1` or `[::1]`) or `*.`
    /// and a domain (`*.example.com`); no scheme, port, path or trailing dot.
    public static func rule(_ text: String) throws(SenderOptionError) -> Rule {
        let refuse = SenderOptionError(
            option: "--webpush-allow-host",
            message: "\"\(text)\" is not a host (push.example.com, 127.0.0.1, ::1) or *.DOMAIN, "
                + "without scheme, port, path or trailing dot")
        if text.hasPrefix("*.") {
            guard let domain = WebPushEndpoint.canonicalHost(String(text.dropFirst(2))), !domain.hasPrefix("["),
                let last = domain.split(separator: ".").last?.utf8.first,
                !(0x30...0x39).contains(last), domain.contains(".")
            else { throw refuse }
            return .domainAndSubdomains(domain)
        }
        let bracketed = text.contains(":") && !text.hasPrefix("[") ? "[" + text + "]" : text
        guard let host = WebPushEndpoint.canonicalHost(bracketed) else { throw refuse }
        return .host(host)
    }
}
