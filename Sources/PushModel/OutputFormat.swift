/// The output formats pushgate writes, declared in the order one input yields them (SPEC section 1):
/// ``allCases`` is that order, and every decision about a format is an exhaustive `switch`, so the
/// compiler names each place a new format must be added.
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
    /// Declarative Web Push message (W3C Push API), encrypted and sent by a web push sender.
    case webpush = "webpush"

    /// The default output topic name (SPEC section 1).
    public var defaultTopic: String {
        switch self {
        case .apns: "push.apns"
        case .adobeCarousel: "push.adobe.carousel"
        case .fbCard: "push.fb.card"
        case .androidExpandable: "push.android.expandable"
        case .fcm: "push.fcm"
        case .webpush: "push.webpush"
        }
    }

    /// Whether the format is delivered through APNs and so carries `apns-*` headers.
    @inlinable
    public var isDeliveredByAPNs: Bool {
        switch self {
        case .apns, .adobeCarousel, .fbCard: true
        case .androidExpandable, .fcm, .webpush: false
        }
    }

    /// The formats `--android-formats` may name: those that reach Android devices.
    public var isAndroidFormat: Bool {
        switch self {
        case .androidExpandable, .fcm: true
        case .apns, .adobeCarousel, .fbCard, .webpush: false
        }
    }

    /// The position in the record order of SPEC section 1: the format's index in ``allCases`` (a test
    /// checks that they agree).
    @inlinable
    public var order: Int {
        switch self {
        case .apns: 0
        case .adobeCarousel: 1
        case .fbCard: 2
        case .androidExpandable: 3
        case .fcm: 4
        case .webpush: 5
        }
    }

    /// The first format in record order: `allCases.first`, without making the array.
    @usableFromInline
    static var firstInRecordOrder: OutputFormat { .apns }

    /// The format after this one in record order (``allCases``), `nil` after the last: a `switch`, so
    /// iterating a set touches no shared array (`OutputFormatCoverageTests` checks it follows `allCases`).
    @usableFromInline
    var nextInRecordOrder: OutputFormat? {
        switch self {
        case .apns: .adobeCarousel
        case .adobeCarousel: .fbCard
        case .fbCard: .androidExpandable
        case .androidExpandable: .fcm
        case .fcm: .webpush
        case .webpush: nil
        }
    }

    public static func < (lhs: OutputFormat, rhs: OutputFormat) -> Bool { lhs.order < rhs.order }
}

/// A set of output formats, iterated in the record order of SPEC section 1. A bit set: building and
/// reading it allocates nothing.
public struct OutputFormatSet: Sendable, Equatable, Sequence {
    @usableFromInline
    var bits: UInt8 = 0

    /// The empty set.
    @inlinable
    public init() {}

    /// A set holding `formats`.
    public init(_ formats: [OutputFormat]) {
        for format in formats { insert(format) }
    }

    /// Adds `format`.
    @inlinable
    public mutating func insert(_ format: OutputFormat) { bits |= 1 << UInt8(format.order) }

    /// Removes `format`.
    @inlinable
    public mutating func remove(_ format: OutputFormat) { bits &= ~(1 << UInt8(format.order)) }

    /// Whether `format` is in the set.
    @inlinable
    public func contains(_ format: OutputFormat) -> Bool { bits & (1 << UInt8(format.order)) != 0 }

    /// Whether the set is empty.
    @inlinable
    public var isEmpty: Bool { bits == 0 }

    /// How many formats the set holds.
    @inlinable
    public var count: Int { bits.nonzeroBitCount }

    /// The formats in record order.
    @inlinable
    public func makeIterator() -> Iterator { Iterator(bits: bits) }

    /// Iterates the formats of a set in record order (``OutputFormat/allCases``).
    public struct Iterator: IteratorProtocol {
        @usableFromInline
        var bits: UInt8
        @usableFromInline
        var candidate: OutputFormat? = OutputFormat.firstInRecordOrder

        @usableFromInline
        init(bits: UInt8) { self.bits = bits }

        /// The next format, `nil` after the last.
        @inlinable
        public mutating func next() -> OutputFormat? {
            while let format = candidate {
                candidate = format.nextInRecordOrder
                if bits & (1 << UInt8(format.order)) != 0 { return format }
            }
            return nil
        }
    }
}

/// A value for each output format, each read and written through an exhaustive `switch`: a new format
/// cannot be left without one.
public struct PerFormat<Value> {
    /// The value of ``OutputFormat/apns``.
    public var apns: Value
    /// The value of ``OutputFormat/adobeCarousel``.
    public var adobeCarousel: Value
    /// The value of ``OutputFormat/fbCard``.
    public var fbCard: Value
    /// The value of ``OutputFormat/androidExpandable``.
    public var androidExpandable: Value
    /// The value of ``OutputFormat/fcm``.
    public var fcm: Value
    /// The value of ``OutputFormat/webpush``.
    public var webpush: Value

    /// `value` for every format.
    public init(repeating value: Value) {
        (apns, adobeCarousel, fbCard, androidExpandable, fcm, webpush) = (value, value, value, value, value, value)
    }

    /// The value of `format`.
    public subscript(format: OutputFormat) -> Value {
        get {
            switch format {
            case .apns: apns
            case .adobeCarousel: adobeCarousel
            case .fbCard: fbCard
            case .androidExpandable: androidExpandable
            case .fcm: fcm
            case .webpush: webpush
            }
        }
        set {
            switch format {
            case .apns: apns = newValue
            case .adobeCarousel: adobeCarousel = newValue
            case .fbCard: fbCard = newValue
            case .androidExpandable: androidExpandable = newValue
            case .fcm: fcm = newValue
            case .webpush: webpush = newValue
            }
        }
    }
}

extension PerFormat: Sendable where Value: Sendable {}
extension PerFormat: Equatable where Value: Equatable {}
