/// An ActivityKit Live Activity push (SPEC 5.1.1): the payload's `live_activity`, checked. With it the
/// `apns` output updates a Live Activity instead of showing a notification.
///
/// Numbers and copied objects are references into the input payload, written as they are.
public struct LiveActivity: Sendable, Equatable {
    /// What the push does to the activity (`aps.event`).
    public enum Event: String, Sendable, Equatable, CaseIterable {
        /// Starts a new activity (push-to-start): needs `attributes-type`, `attributes` and an alert.
        case start
        /// Updates the activity's content.
        case update
        /// Ends the activity; it stays on the lock screen until its dismissal date.
        case end
    }

    /// The event.
    public var event: Event
    /// `aps.content-state`, an object (required for `start` and `update`).
    public var contentState: InputValue?
    /// `aps.timestamp`, integer seconds as written; `nil`: the input record's time.
    public var timestamp: InputValue?
    /// `aps.stale-date`, integer seconds as written.
    public var staleDate: InputValue?
    /// `aps.dismissal-date`, integer seconds as written (`end` only).
    public var dismissalDate: InputValue?
    /// `aps.relevance-score`, a number as written.
    public var relevanceScore: InputValue?
    /// `aps.attributes-type`, the app's `ActivityAttributes` type name (`start` only).
    public var attributesType: InputText?
    /// `aps.attributes`, an object (`start` only).
    public var attributes: InputValue?
    /// Whether `aps.input-push-token: 1` is written (`start` only).
    public var inputPushToken: Bool = false
    /// `aps.input-push-channel`, the broadcast channel of the new activity (`start` only).
    public var inputPushChannel: InputText?
    /// The `apns-channel-id` header: the push is a broadcast to this channel (`update`, `end`).
    public var channelID: InputText?

    /// Creates a Live Activity push with nothing set but its event.
    @inlinable
    public init(event: Event) {
        self.event = event
    }
}
