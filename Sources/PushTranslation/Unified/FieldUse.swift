import PushModel

/// What the routed formats are, as the table of SPEC section 4 reads them: the formats, and whether the
/// `apns` output is a Live Activity push (it then uses none of the notification-only fields).
struct RoutedUse {
    /// The routed formats.
    let formats: OutputFormatSet
    /// Whether `apns` is routed as a notification ("apns (not a Live Activity)").
    let apnsNotification: Bool
    /// Whether `apns` is routed and writes `custom.ios_sound`: a notification, or a Live Activity with an
    /// alert (SPEC 9: without `message.title` and `message.body` there is no alert to carry it).
    let apnsSound: Bool

    /// The use of `formats`; `liveActivity` when `live_activity` is given, `liveActivityAlert` when the
    /// Live Activity would have an alert.
    init(formats: OutputFormatSet, liveActivity: Bool, liveActivityAlert: Bool) {
        self.formats = formats
        let apns = formats.contains(.apns)
        apnsNotification = apns && !liveActivity
        apnsSound = apns && (!liveActivity || liveActivityAlert)
    }

    /// Whether `adobe-carousel` or `fb-card` is routed: they use every `custom.ios_*` field.
    var apnsTemplate: Bool { formats.contains(.adobeCarousel) || formats.contains(.fbCard) }
}

/// Which formats use a given field (the table of SPEC section 4), for the `unused_field` warning.
enum FieldUse: UInt8, CaseIterable {
    /// `message.subtitle`, `custom.ios_*` but `ios_sound`, `thread_id`: the formats delivered by APNs
    /// (`apns` as a notification).
    case apnsDelivered
    /// `custom.ios_sound`: the formats delivered by APNs (`apns` as a notification or a Live Activity
    /// with an alert).
    case iosSound
    /// `message.priority`, `message.ttl`, `collapse_id`: the formats delivered by APNs, fcm and webpush.
    case deliveryOptions
    /// `action` of type `url`: apns, android-expandable, adobe-carousel and webpush.
    case actionURL
    /// `action` of another type: apns and android-expandable.
    case actionOther
    /// `actions`: apns, android-expandable and webpush.
    case actions
    /// `expandable`.
    case expandable
    /// `carousel`.
    case carousel
    /// `card`.
    case card
    /// `live_activity`: apns.
    case liveActivity
    /// `custom.android_*`: fcm.
    case androidOptions
    /// `web`: webpush.
    case web

    /// The use of a `custom` key.
    init(_ key: CustomKey) {
        self = key == .ios_sound ? .iosSound : key.isIOS ? .apnsDelivered : .androidOptions
    }

    /// Whether any of the routed formats uses the field.
    func isUsed(by routed: RoutedUse) -> Bool {
        let formats = routed.formats
        return switch self {
        case .apnsDelivered: routed.apnsNotification || routed.apnsTemplate
        case .iosSound: routed.apnsSound || routed.apnsTemplate
        case .deliveryOptions:
            formats.contains { $0.isDeliveredByAPNs } || formats.contains(.fcm) || formats.contains(.webpush)
        case .actionURL:
            routed.apnsNotification || formats.contains(.androidExpandable) || formats.contains(.adobeCarousel)
                || formats.contains(.webpush)
        case .actionOther: routed.apnsNotification || formats.contains(.androidExpandable)
        case .actions: routed.apnsNotification || formats.contains(.androidExpandable) || formats.contains(.webpush)
        case .expandable: formats.contains(.androidExpandable)
        case .carousel: formats.contains(.adobeCarousel)
        case .card: formats.contains(.fbCard)
        case .liveActivity: formats.contains(.apns)
        case .androidOptions: formats.contains(.fcm)
        case .web: formats.contains(.webpush)
        }
    }

    /// Which formats would use it, for the warning message; `liveActivity` when `live_activity` is given
    /// (the `apns` output is then a Live Activity push). The texts of the uses older than `webpush` are
    /// kept as they were (without it), so that a payload that does not name web push gives the same
    /// record bytes as before (SPEC section 9, version 3).
    func usedByDescription(liveActivity: Bool) -> String {
        let apns = liveActivity ? "apns (not a Live Activity)" : "apns"
        return switch self {
        case .apnsDelivered: "\(apns), adobe-carousel and fb-card"
        case .iosSound:
            liveActivity
                ? "apns (a Live Activity only with message.title or message.body), adobe-carousel and fb-card"
                : "apns, adobe-carousel and fb-card"
        case .deliveryOptions: "apns, adobe-carousel, fb-card and fcm"
        case .actionURL, .actionOther: "\(apns), android-expandable (and adobe-carousel for a url action)"
        case .actions: "\(apns) and android-expandable"
        case .expandable: "android-expandable"
        case .carousel: "adobe-carousel"
        case .card: "fb-card"
        case .liveActivity: "apns"
        case .androidOptions: "fcm"
        case .web: "webpush"
        }
    }
}

/// A set of ``FieldUse`` (a bit set: no allocation).
struct FieldUseSet {
    private var bits: UInt32 = 0

    @inline(__always)
    mutating func insert(_ use: FieldUse) { bits |= 1 << UInt32(use.rawValue) }
    func contains(_ use: FieldUse) -> Bool { bits & (1 << UInt32(use.rawValue)) != 0 }

    /// Whether some use in the set is not used by the routed formats.
    func hasUnused(by routed: RoutedUse) -> Bool {
        // Only the uses in the set, lowest bit first.
        var remaining = bits
        while remaining != 0 {
            if let use = FieldUse(rawValue: UInt8(remaining.trailingZeroBitCount)), !use.isUsed(by: routed) {
                return true
            }
            remaining &= remaining - 1
        }
        return false
    }
}
