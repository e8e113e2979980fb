import PushModel

/// A push service `pushgate deliver` posts to (SPEC 10).
public enum Platform: String, Sendable, CaseIterable, Hashable {
    /// Apple Push Notification service: the `apns`, `adobe-carousel` and `fb-card` formats.
    case apns
    /// Firebase Cloud Messaging HTTP v1: the `fcm` format.
    case fcm
    /// The browsers' push services (RFC 8030): the `webpush` format.
    case webpush

    /// The platform that delivers a format, or `nil` for a format delivered elsewhere
    /// (`android-expandable`: Acoustic's own service sends it).
    public init?(delivering format: OutputFormat) {
        switch format {
        case .apns, .adobeCarousel, .fbCard: self = .apns
        case .fcm: self = .fcm
        case .webpush: self = .webpush
        case .androidExpandable: return nil
        }
    }

    /// The formats this platform delivers, in the order of ``OutputFormat/allCases``.
    public var formats: [OutputFormat] {
        OutputFormat.allCases.filter { Platform(delivering: $0) == self }
    }
}
