import PushModel

/// Which formats use a given field (the table of SPEC section 4), for the `unused_field` warning.
enum FieldUse: Equatable {
    /// `message.subtitle`, `message.priority`, `message.ttl`, `custom.ios_*`, `collapse_id`, `thread_id`.
    case apnsDelivered
    /// `action`: apns and android-expandable; adobe-carousel too when its type is `url`.
    case action(typeIsURL: Bool)
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
    func isUsed(by formats: [OutputFormat]) -> Bool {
        switch self {
        case .apnsDelivered: formats.contains { $0.isDeliveredByAPNs }
        case .action(let typeIsURL):
            formats.contains(.apns) || formats.contains(.androidExpandable)
                || (typeIsURL && formats.contains(.adobeCarousel))
        case .actions: formats.contains(.apns) || formats.contains(.androidExpandable)
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
        case .action: "apns, android-expandable (and adobe-carousel for a url action)"
        case .actions: "apns and android-expandable"
        case .expandable: "android-expandable"
        case .carousel: "adobe-carousel"
        case .card: "fb-card"
        case .noFormat: "no format yet (reserved for an Android transport format)"
        }
    }
}

/// A given field that only some formats use.
struct GivenField {
    let parent: String
    let name: String?
    let use: FieldUse

    /// A field whose pointer is already built.
    init(path: String, use: FieldUse) {
        self.parent = path
        self.name = nil
        self.use = use
    }

    /// A member of the object at `parent`; its pointer is built only when a warning needs it.
    init(parent: String, name: String, use: FieldUse) {
        self.parent = parent
        self.name = name
        self.use = use
    }

    var path: String { name.map { JSONPointer.appending(parent, $0) } ?? parent }
}
