import PushModel

/// Which formats use a given field (the table of SPEC section 4), for the `unused_field` warning.
enum FieldUse: UInt8, CaseIterable {
    /// `message.subtitle`, `custom.ios_*`, `thread_id`: the formats delivered by APNs.
    case apnsDelivered
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
    /// `custom.android_*`: fcm.
    case androidOptions
    /// `web`: webpush.
    case web

    /// Whether any of `formats` uses the field.
    func isUsed(by formats: OutputFormatSet) -> Bool {
        switch self {
        case .apnsDelivered: formats.contains { $0.isDeliveredByAPNs }
        case .deliveryOptions:
            formats.contains { $0.isDeliveredByAPNs } || formats.contains(.fcm) || formats.contains(.webpush)
        case .actionURL:
            formats.contains(.apns) || formats.contains(.androidExpandable) || formats.contains(.adobeCarousel)
                || formats.contains(.webpush)
        case .actionOther: formats.contains(.apns) || formats.contains(.androidExpandable)
        case .actions: formats.contains(.apns) || formats.contains(.androidExpandable) || formats.contains(.webpush)
        case .expandable: formats.contains(.androidExpandable)
        case .carousel: formats.contains(.adobeCarousel)
        case .card: formats.contains(.fbCard)
        case .androidOptions: formats.contains(.fcm)
        case .web: formats.contains(.webpush)
        }
    }

    /// Which formats would use it, for the warning message. The texts of the uses older than `webpush` are
    /// kept as they were (without it), so that a payload that does not name web push gives the same
    /// record bytes as before (SPEC section 9, version 3).
    var usedByDescription: String {
        switch self {
        case .apnsDelivered: "apns, adobe-carousel and fb-card"
        case .deliveryOptions: "apns, adobe-carousel, fb-card and fcm"
        case .actionURL, .actionOther: "apns, android-expandable (and adobe-carousel for a url action)"
        case .actions: "apns and android-expandable"
        case .expandable: "android-expandable"
        case .carousel: "adobe-carousel"
        case .card: "fb-card"
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

    /// Whether some use in the set is not used by `formats`.
    func hasUnused(by formats: OutputFormatSet) -> Bool {
        // Only the uses in the set, lowest bit first.
        var remaining = bits
        while remaining != 0 {
            if let use = FieldUse(rawValue: UInt8(remaining.trailingZeroBitCount)), !use.isUsed(by: formats) {
                return true
            }
            remaining &= remaining - 1
        }
        return false
    }
}
