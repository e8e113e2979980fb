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
    /// Firebase Cloud Messaging HTTP v1 request body (Android).
    case fcm = "fcm"

    /// The default output topic name (SPEC section 1).
    public var defaultTopic: String {
        switch self {
        case .apns: "push.apns"
        case .adobeCarousel: "push.adobe.carousel"
        case .fbCard: "push.fb.card"
        case .androidExpandable: "push.android.expandable"
        case .fcm: "push.fcm"
        }
    }

    /// Whether the format is delivered through APNs and so carries `apns-*` headers.
    public var isDeliveredByAPNs: Bool {
        switch self {
        case .apns, .adobeCarousel, .fbCard: true
        case .androidExpandable, .fcm: false
        }
    }

    /// The formats `--android-formats` may name: those that reach Android devices.
    public var isAndroidFormat: Bool {
        switch self {
        case .androidExpandable, .fcm: true
        case .apns, .adobeCarousel, .fbCard: false
        }
    }

    /// The position in the record order of SPEC section 1.
    public var order: Int {
        switch self {
        case .apns: 0
        case .adobeCarousel: 1
        case .fbCard: 2
        case .androidExpandable: 3
        case .fcm: 4
        }
    }

    /// The format at `order` in the record order, `nil` past the last.
    public init?(order: Int) {
        switch order {
        case 0: self = .apns
        case 1: self = .adobeCarousel
        case 2: self = .fbCard
        case 3: self = .androidExpandable
        case 4: self = .fcm
        default: return nil
        }
    }

    public static func < (lhs: OutputFormat, rhs: OutputFormat) -> Bool { lhs.order < rhs.order }
}

/// A set of output formats, iterated in the record order of SPEC section 1. A bit set: building and
/// reading it allocates nothing.
public struct OutputFormatSet: Sendable, Equatable, Sequence {
    private var bits: UInt8 = 0

    /// The empty set.
    public init() {}

    /// A set holding `formats`.
    public init(_ formats: [OutputFormat]) {
        for format in formats { insert(format) }
    }

    /// Adds `format`.
    public mutating func insert(_ format: OutputFormat) { bits |= 1 << UInt8(format.order) }

    /// Removes `format`.
    public mutating func remove(_ format: OutputFormat) { bits &= ~(1 << UInt8(format.order)) }

    /// Whether `format` is in the set.
    public func contains(_ format: OutputFormat) -> Bool { bits & (1 << UInt8(format.order)) != 0 }

    /// Whether the set is empty.
    public var isEmpty: Bool { bits == 0 }

    /// The formats in record order.
    public func makeIterator() -> Iterator { Iterator(bits: bits) }

    /// Iterates the formats of a set in record order.
    public struct Iterator: IteratorProtocol {
        var bits: UInt8
        var position = 0

        /// The next format, `nil` after the last.
        public mutating func next() -> OutputFormat? {
            while let format = OutputFormat(order: position) {
                position += 1
                if bits & (1 << UInt8(format.order)) != 0 { return format }
            }
            return nil
        }
    }
}
