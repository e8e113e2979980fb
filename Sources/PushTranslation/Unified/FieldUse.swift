import PushModel

/// Which formats use a given field (the table of SPEC section 4), for the `unused_field` warning.
enum FieldUse: UInt8, CaseIterable {
    /// `message.subtitle`, `message.priority`, `message.ttl`, `custom.ios_*`, `collapse_id`, `thread_id`.
    case apnsDelivered
    /// `action` of type `url`: apns, android-expandable and adobe-carousel.
    case actionURL
    /// `action` of another type: apns and android-expandable.
    case actionOther
    /// `actions`.
    case actions
    /// `expandable`.
    case expandable
    /// `carousel`.
    case carousel
    /// `card`.
    case card
    /// `custom.android_*`: no format yet.
    case noFormat

    /// Whether any of `formats` uses the field.
    func isUsed(by formats: OutputFormatSet) -> Bool {
        switch self {
        case .apnsDelivered: formats.contains { $0.isDeliveredByAPNs }
        case .actionURL: formats.contains(.apns) || formats.contains(.androidExpandable) || formats.contains(.adobeCarousel)
        case .actionOther, .actions: formats.contains(.apns) || formats.contains(.androidExpandable)
        case .expandable: formats.contains(.androidExpandable)
        case .carousel: formats.contains(.adobeCarousel)
        case .card: formats.contains(.fbCard)
        case .noFormat: false
        }
    }

    /// Which formats would use it, for the warning message.
    var usedByDescription: String {
        switch self {
        case .apnsDelivered: "apns, adobe-carousel and fb-card"
        case .actionURL, .actionOther: "apns, android-expandable (and adobe-carousel for a url action)"
        case .actions: "apns and android-expandable"
        case .expandable: "android-expandable"
        case .carousel: "adobe-carousel"
        case .card: "fb-card"
        case .noFormat: "no format yet (reserved for an Android transport format)"
        }
    }
}

/// A set of ``FieldUse`` (a bit set: no allocation).
struct FieldUseSet {
    private var bits: UInt8 = 0

    mutating func insert(_ use: FieldUse) { bits |= 1 << use.rawValue }
    func contains(_ use: FieldUse) -> Bool { bits & (1 << use.rawValue) != 0 }

    /// Whether some use in the set is not used by `formats`.
    func hasUnused(by formats: OutputFormatSet) -> Bool {
        var rawValue: UInt8 = 0
        while let use = FieldUse(rawValue: rawValue) {
            if contains(use) && !use.isUsed(by: formats) { return true }
            rawValue += 1
        }
        return false
    }
}
