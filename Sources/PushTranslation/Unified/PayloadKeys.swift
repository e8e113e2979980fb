// swift-format-ignore-file: AlwaysUseLowerCamelCase
// The cases are the payload's member names, spelled as SPEC.md spells them (`ios_badge`): each raw value
// is the name itself.

import PushModel

/// The member names of each object of the unified payload (SPEC sections 3 and 5), for ``JSONKey`` matching.
enum TopLevelKey: String, JSONKey {
    case id, platform, targets, message, data, custom, collapse_id, thread_id, action, actions, expandable, carousel,
        card, live_activity, web
    case dryRun = "dry_run"
    static let keyTable = KeyTable<Self>()
}

enum PlatformKey: String, JSONKey {
    case ios, android, web
    static let keyTable = KeyTable<Self>()
}

enum MessageKey: String, JSONKey {
    case title, body, subtitle, priority, ttl
    static let keyTable = KeyTable<Self>()
}

enum CustomKey: String, JSONKey {
    case ios_badge, ios_sound, ios_category, ios_launch_image, ios_content_available, ios_mutable_content
    case ios_title_loc_key, ios_title_loc_args, ios_action_loc_key, ios_loc_key, ios_loc_args
    case android_channel_id, android_click_action, android_icon, android_sound, android_led_color
    case android_title_loc_key, android_title_loc_args, android_body_loc_key, android_body_loc_args
    case android_body_loc_key_action, android_body_loc_key_args
    static let keyTable = KeyTable<Self>()

    /// The key's position in declaration order (``allCases``), its bit in a ``CustomKeySet``: a switch,
    /// not a search of `allCases` (a test checks that they agree).
    var ordinal: Int {
        switch self {
        case .ios_badge: 0
        case .ios_sound: 1
        case .ios_category: 2
        case .ios_launch_image: 3
        case .ios_content_available: 4
        case .ios_mutable_content: 5
        case .ios_title_loc_key: 6
        case .ios_title_loc_args: 7
        case .ios_action_loc_key: 8
        case .ios_loc_key: 9
        case .ios_loc_args: 10
        case .android_channel_id: 11
        case .android_click_action: 12
        case .android_icon: 13
        case .android_sound: 14
        case .android_led_color: 15
        case .android_title_loc_key: 16
        case .android_title_loc_args: 17
        case .android_body_loc_key: 18
        case .android_body_loc_args: 19
        case .android_body_loc_key_action: 20
        case .android_body_loc_key_args: 21
        }
    }

    /// Whether the key is one of `custom.ios_*` (used by the formats delivered by APNs).
    var isIOS: Bool {
        switch self {
        case .ios_badge, .ios_sound, .ios_category, .ios_launch_image, .ios_content_available, .ios_mutable_content,
            .ios_title_loc_key, .ios_title_loc_args, .ios_action_loc_key, .ios_loc_key, .ios_loc_args:
            true
        default: false
        }
    }
}

enum WebKey: String, JSONKey {
    case navigate, icon, lang, dir, silent, require_interaction, app_badge, mutable, urgency, topic
    static let keyTable = KeyTable<Self>()
}

enum ActionKey: String, JSONKey {
    case type, name, value, destructive, authentication, foreground
    static let keyTable = KeyTable<Self>()
}

enum ExpandableKey: String, JSONKey {
    case type, value
    static let keyTable = KeyTable<Self>()
}

enum CarouselKey: String, JSONKey {
    case items, mode, layout, expanded_title, expanded_body, uri, colors
    static let keyTable = KeyTable<Self>()
}

enum CarouselItemKey: String, JSONKey {
    case image, text, uri
    static let keyTable = KeyTable<Self>()
}

enum CarouselColorKey: String, JSONKey {
    case title, body, background
    static let keyTable = KeyTable<Self>()
}

enum CardKey: String, JSONKey {
    case size, corner_radius, content_inset, backdrop_color, dismiss_color, campaign, hero, body, actions
    static let keyTable = KeyTable<Self>()
}

enum HeroKey: String, JSONKey {
    case height, background, content, content_align
    static let keyTable = KeyTable<Self>()
}

enum CardBodyKey: String, JSONKey {
    case background, content
    static let keyTable = KeyTable<Self>()
}

enum BackgroundKey: String, JSONKey {
    case type, url, color
    static let keyTable = KeyTable<Self>()
}

enum StyledTextKey: String, JSONKey {
    case text, color, size, align, font
    static let keyTable = KeyTable<Self>()
}

enum CardActionsKey: String, JSONKey {
    case style, layout_style, background, height, top_inset, content_inset, corner_radius, buttons
    static let keyTable = KeyTable<Self>()
}

enum CardButtonKey: String, JSONKey {
    case background_color, border_color, border_width, content, url
    static let keyTable = KeyTable<Self>()
}

enum LiveActivityKey: String, JSONKey {
    case event, content_state, timestamp, stale_date, dismissal_date, relevance_score, attributes_type, attributes
    case input_push_token, input_push_channel, channel_id
    static let keyTable = KeyTable<Self>()

    /// Whether a push with `event` takes the key (the "events" column of SPEC 5.1.1).
    func isTaken(by event: LiveActivity.Event) -> Bool {
        switch self {
        case .event, .content_state, .timestamp, .stale_date, .relevance_score: true
        case .dismissal_date: event == .end
        case .attributes_type, .attributes, .input_push_token, .input_push_channel: event == .start
        case .channel_id: event != .start
        }
    }

    /// The events that take the key, for messages.
    var takenBy: String {
        switch self {
        case .event, .content_state, .timestamp, .stale_date, .relevance_score: "every event"
        case .dismissal_date: "\"end\""
        case .attributes_type, .attributes, .input_push_token, .input_push_channel: "\"start\""
        case .channel_id: "\"update\" and \"end\""
        }
    }
}

// The values ``ValidationContext/choice(_:_:_:choices:)`` reads, matched as member names are.
extension MessagePriority: JSONKey { static let keyTable = KeyTable<Self>() }
extension Card.Size: JSONKey { static let keyTable = KeyTable<Self>() }
extension Card.StyledText.Alignment: JSONKey { static let keyTable = KeyTable<Self>() }
extension Card.Hero.ContentAlignment: JSONKey { static let keyTable = KeyTable<Self>() }
extension Card.Actions.Style: JSONKey { static let keyTable = KeyTable<Self>() }
extension Card.Actions.LayoutStyle: JSONKey { static let keyTable = KeyTable<Self>() }
extension Carousel.Mode: JSONKey { static let keyTable = KeyTable<Self>() }
extension Carousel.Layout: JSONKey { static let keyTable = KeyTable<Self>() }
extension Expandable.Kind: JSONKey { static let keyTable = KeyTable<Self>() }
extension LiveActivity.Event: JSONKey { static let keyTable = KeyTable<Self>() }
extension WebOptions.Direction: JSONKey { static let keyTable = KeyTable<Self>() }
extension WebOptions.Urgency: JSONKey { static let keyTable = KeyTable<Self>() }
