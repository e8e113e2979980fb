/// The output formats pushgate writes, in the order one input yields them.
public enum OutputFormat: String, Sendable, CaseIterable, Hashable, Comparable {
    /// Apple Push Notification service payload.
    case apns = "apns"
    /// Adobe Experience Platform carousel template, delivered by APNs.
    case adobeCarousel = "adobe-carousel"
    /// Facebook In-App Notifications card 1.0, delivered by APNs.
    case fbCard = "fb-card"
    /// Acoustic Mobile App Messaging Android expandable notification.
    case androidExpandable = "android-expandable"

    /// The default output topic name (SPEC section 1).
    public var defaultTopic: String {
        switch self {
        case .apns: "push.apns"
        case .adobeCarousel: "push.adobe.carousel"
        case .fbCard: "push.fb.card"
        case .androidExpandable: "push.android.expandable"
        }
    }

    /// Whether the format is delivered through APNs and so carries `apns-*` headers.
    public var isDeliveredByAPNs: Bool { self != .androidExpandable }

    /// The position in the record order of SPEC section 1.
    public var order: Int {
        switch self {
        case .apns: 0
        case .adobeCarousel: 1
        case .fbCard: 2
        case .androidExpandable: 3
        }
    }

    public static func < (lhs: OutputFormat, rhs: OutputFormat) -> Bool { lhs.order < rhs.order }
}
