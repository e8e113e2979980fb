import PushModel

/// What the routed formats use, as the table of SPEC section 4 reads them: the union of each routed
/// format's fields (``FieldUseSet/uses(of:liveActivity:liveActivityAlert:)``).
struct RoutedUse {
    /// The fields some routed format uses.
    let used: FieldUseSet

    /// The use of `formats`; `liveActivity` when `live_activity` is given (the `apns` output is then a
    /// Live Activity push), `liveActivityAlert` when the Live Activity would have an alert.
    init(formats: OutputFormatSet, liveActivity: Bool, liveActivityAlert: Bool) {
        var used = FieldUseSet()
        for format in formats {
            used.formUnion(.uses(of: format, liveActivity: liveActivity, liveActivityAlert: liveActivityAlert))
        }
        self.used = used
    }
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
    func isUsed(by routed: RoutedUse) -> Bool { routed.used.contains(self) }

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

    /// Adds every use of `other`.
    mutating func formUnion(_ other: FieldUseSet) { bits |= other.bits }

    /// The set with `use` added.
    @inline(__always)
    func adding(_ use: FieldUse) -> FieldUseSet {
        var set = self
        set.insert(use)
        return set
    }

    /// Whether some use in the set is not used by the routed formats.
    func hasUnused(by routed: RoutedUse) -> Bool { bits & ~routed.used.bits != 0 }

    /// The fields `format` uses: its column of SPEC section 4's table. A `switch` over the formats, so
    /// that a new format cannot be added without saying which fields it uses. The `apns` output of a Live
    /// Activity push uses none of the notification-only fields, and `custom.ios_sound` only when it has
    /// an alert (SPEC 9: without `message.title` and `message.body` there is no alert to carry it).
    static func uses(of format: OutputFormat, liveActivity: Bool, liveActivityAlert: Bool) -> FieldUseSet {
        let none = FieldUseSet()
        switch format {
        case .apns:
            guard liveActivity else {
                return none.adding(.apnsDelivered).adding(.iosSound).adding(.deliveryOptions).adding(.actionURL)
                    .adding(.actionOther).adding(.actions).adding(.liveActivity)
            }
            let activity = none.adding(.deliveryOptions).adding(.liveActivity)
            return liveActivityAlert ? activity.adding(.iosSound) : activity
        case .adobeCarousel:
            return none.adding(.apnsDelivered).adding(.iosSound).adding(.deliveryOptions).adding(.actionURL)
                .adding(.carousel)
        case .fbCard:
            return none.adding(.apnsDelivered).adding(.iosSound).adding(.deliveryOptions).adding(.card)
        case .androidExpandable:
            return none.adding(.actionURL).adding(.actionOther).adding(.actions).adding(.expandable)
        case .fcm:
            return none.adding(.deliveryOptions).adding(.androidOptions)
        case .webpush:
            return none.adding(.deliveryOptions).adding(.actionURL).adding(.actions).adding(.web)
        }
    }
}
