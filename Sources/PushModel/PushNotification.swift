/// The canonical intermediate representation of one valid unified payload: everything the emitters
/// of every format need, already checked and normalized (defaults applied, aliases resolved).
///
/// Texts and copied values are references into the input payload (``InputText``, ``InputValue``):
/// the IR is read together with the bytes it was built from.
public struct PushNotification: Sendable, Equatable {
    /// The payload's `id`, when it was given and valid.
    public var id: InputText?
    /// The formats to produce, in SPEC record order.
    public var formats: OutputFormatSet
    /// Whether outputs are marked `pushgate-dry-run: true`.
    public var dryRun: Bool
    /// The visible text and its delivery options.
    public var message: Message
    /// iOS (APNs) options from `custom.ios_*`, `collapse_id` and `thread_id`.
    public var ios: IOSOptions
    /// Android options from `custom.android_*`.
    public var android: AndroidOptions
    /// The default tap action.
    public var action: NotificationAction?
    /// The buttons, 1...3 when given.
    public var actions: ActionList?
    /// The Android expanded view.
    public var expandable: Expandable?
    /// The Adobe carousel template.
    public var carousel: Carousel?
    /// The Facebook in-app card.
    public var card: Card?
    /// The Live Activity the `apns` output updates instead of showing a notification (SPEC 5.1.1).
    public var liveActivity: LiveActivity?
    /// The web push options (`web`), when given.
    public var web: WebOptions?
    /// Custom developer data (an object), copied into every format after the format's own keys;
    /// `nil` when absent.
    public var data: InputValue?

    /// Creates a notification with nothing set but the formats.
    @inlinable
    public init(formats: OutputFormatSet = OutputFormatSet()) {
        // The optional properties start out nil; assigning them again is an assignment over a value, not
        // an initialization (see OutputRecord: such initializers were copied out whole).
        self.formats = formats
        self.dryRun = false
        self.message = Message()
        self.ios = IOSOptions()
        self.android = AndroidOptions()
    }
}

/// Delivery priority of a notification.
public enum MessagePriority: String, Sendable, Equatable, CaseIterable {
    /// `normal`: APNs priority 5.
    case normal
    /// `high`: APNs priority 10.
    case high
}

/// The visible text of a notification and its delivery options.
public struct Message: Sendable, Equatable {
    /// The title.
    public var title: InputText?
    /// The subtitle (iOS).
    public var subtitle: InputText?
    /// The body.
    public var body: InputText?
    /// The priority. Default: `normal`.
    public var priority: MessagePriority = .normal
    /// Time to live in seconds, 0...2,419,200. Default: 2,419,200 (four weeks).
    public var ttlSeconds: Int64 = Message.defaultTTLSeconds

    /// The default and largest time to live, four weeks in seconds.
    public static let defaultTTLSeconds: Int64 = 2_419_200

    /// Creates an empty message with the defaults.
    @inlinable
    public init() {}
}

/// iOS options of a notification.
public struct IOSOptions: Sendable, Equatable {
    /// `aps.badge`: the number in the input (a valid integer), written as it is written there. Kept by
    /// its position, as texts are: no string is made of it.
    public var badge: InputValue?
    /// `aps.sound`.
    public var sound: InputText?
    /// `aps.category`.
    public var category: InputText?
    /// `aps.alert.launch-image`.
    public var launchImage: InputText?
    /// Whether `aps.content-available: 1` is written.
    public var contentAvailable: Bool = false
    /// Whether `aps.mutable-content: 1` is written.
    public var mutableContent: Bool = false
    /// `aps.alert.title-loc-key`.
    public var titleLocKey: InputText?
    /// `aps.alert.title-loc-args`.
    public var titleLocArgs: LocArgs?
    /// `aps.alert.action-loc-key`.
    public var actionLocKey: InputText?
    /// `aps.alert.loc-key`.
    public var locKey: InputText?
    /// `aps.alert.loc-args`.
    public var locArgs: LocArgs?
    /// `aps.thread-id`.
    public var threadID: InputText?
    /// The `apns-collapse-id` header.
    public var collapseID: InputText?

    /// Creates options with nothing set.
    @inlinable
    public init() {}
}

/// Android options of a notification, kept for an Android transport format.
public struct AndroidOptions: Sendable, Equatable {
    /// `android_channel_id`.
    public var channelID: InputText?
    /// `android_click_action`.
    public var clickAction: InputText?
    /// `android_icon`.
    public var icon: InputText?
    /// `android_sound`.
    public var sound: InputText?
    /// `android_led_color`, `#RRGGBB` as given.
    public var ledColor: String?
    /// `android_title_loc_key`.
    public var titleLocKey: InputText?
    /// `android_title_loc_args`.
    public var titleLocArgs: LocArgs?
    /// `android_body_loc_key` (or its alias `android_body_loc_key_action`).
    public var bodyLocKey: InputText?
    /// `android_body_loc_args` (or its alias `android_body_loc_key_args`).
    public var bodyLocArgs: LocArgs?

    /// Creates options with nothing set.
    @inlinable
    public init() {}
}
