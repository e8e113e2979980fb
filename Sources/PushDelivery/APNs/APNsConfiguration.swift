/// What the APNs sender needs besides its signing key (SPEC 10.3; the options of 10.8).
public struct APNsConfiguration: Sendable {
    /// The key's id from Apple's developer account (`--apns-key-id`): the provider token's `kid`.
    public var keyID: String
    /// The team id (`--apns-team-id`): the provider token's `iss`.
    public var teamID: String
    /// The bundle id for devices without an `app`, and the app of broadcasts (`--apns-bundle-id`). Default: none.
    public var bundleID: String?
    /// Where `production` devices and broadcasts are posted (`--apns-endpoint`). Default: `https://api.push.apple.com`.
    public var productionEndpoint: APNsEndpoint
    /// Where `development` devices are posted (`--apns-sandbox-endpoint`).
    /// Default: `https://api.sandbox.push.apple.com`.
    public var sandboxEndpoint: APNsEndpoint

    /// Creates a configuration and checks it: a key id, team id or bundle id that is empty or not printable ASCII
    /// (bundle id: letters, digits, `.` and `-`) is an error naming its option.
    public init(
        keyID: String, teamID: String, bundleID: String? = nil,
        productionEndpoint: APNsEndpoint = .production, sandboxEndpoint: APNsEndpoint = .sandbox
    ) throws(SenderOptionError) {
        for (value, option) in [(keyID, "--apns-key-id"), (teamID, "--apns-team-id")]
        where value.isEmpty || !value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            throw SenderOptionError(option: option, message: "must be the id Apple gives (printable ASCII, no spaces)")
        }
        if let bundleID, !Self.isBundleID(bundleID) {
            throw SenderOptionError(
                option: "--apns-bundle-id", message: "\"\(bundleID)\" is not a bundle id (letters, digits, . and -)")
        }
        self.keyID = keyID
        self.teamID = teamID
        self.bundleID = bundleID
        self.productionEndpoint = productionEndpoint
        self.sandboxEndpoint = sandboxEndpoint
    }

    /// Whether `text` is usable as a bundle id: 1 to 255 letters, digits, `.` and `-` (Apple's rule for bundle ids).
    public static func isBundleID(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.count <= 255
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }
}

/// An APNs endpoint: an `https` URL of a host (and port), perhaps with a path prefix (a proxy).
public struct APNsEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// Apple's production endpoint.
    public static let production = APNsEndpoint(checked: "https://api.push.apple.com")
    /// Apple's sandbox (development) endpoint.
    public static let sandbox = APNsEndpoint(checked: "https://api.sandbox.push.apple.com")

    /// The URL requests' paths are appended to, without a trailing `/`.
    public let base: String

    private init(checked base: String) { self.base = base }

    /// Reads `--apns-endpoint`-like text (`option` names the option in errors): `https://HOST[:PORT][/PREFIX]`,
    /// without user information, query or fragment.
    public init(_ text: String, option: String) throws(SenderOptionError) {
        let scheme = "https://"
        guard text.lowercased().hasPrefix(scheme) else {
            throw SenderOptionError(option: option, message: "\"\(text)\" is not an https:// URL")
        }
        var rest = Substring(text.dropFirst(scheme.count))
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        let authority = rest.prefix(while: { $0 != "/" })
        guard !authority.isEmpty, !authority.hasPrefix(":"),
            rest.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
            !rest.contains(where: { "?#@\\".contains($0) })
        else {
            throw SenderOptionError(
                option: option, message: "\"\(text)\" is not an https URL of a host (no user, query or fragment)")
        }
        self.base = scheme + rest
    }

    /// The URL.
    public var description: String { base }
}
