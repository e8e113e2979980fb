/// What a refusal of credentials pauses (SPEC 10.6): APNs as a whole; for FCM one project; for web push
/// one VAPID key.
public struct PauseKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The platform.
    public var platform: Platform
    /// The FCM project or VAPID key name (`nil`: the platform's only or default credentials; always `nil`
    /// for APNs).
    public var scope: String?

    /// Creates a key.
    public init(platform: Platform, scope: String? = nil) {
        self.platform = platform
        self.scope = platform == .apns ? nil : scope
    }

    /// The key of a push to `device` (or a broadcast) on `platform`.
    public init(platform: Platform, device: Device?) {
        self.init(platform: platform, scope: device?.app)
    }

    /// `apns`, `fcm project NAME`, `webpush key NAME`.
    public var description: String {
        guard let scope else { return platform.rawValue }
        switch platform {
        case .apns: return platform.rawValue
        case .fcm: return "fcm project \(scope)"
        case .webpush: return "webpush key \(scope)"
        }
    }

    public static func < (lhs: PauseKey, rhs: PauseKey) -> Bool {
        (lhs.platform.rawValue, lhs.scope ?? "") < (rhs.platform.rawValue, rhs.scope ?? "")
    }
}
