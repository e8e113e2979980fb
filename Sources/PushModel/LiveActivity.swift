/// An ActivityKit Live Activity push (SPEC 5.1.1): the payload's `live_activity`, checked. With it the
/// `apns` output updates a Live Activity instead of showing a notification.
///
/// Only the event and where the checked object is are kept: the `apns` emitter writes its members from
/// the input payload (numbers and the app's objects as they are written there), so that the IR of the
/// many payloads without a Live Activity stays small.
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
    /// The `live_activity` object: every member is checked (its type, range and event); `null` members
    /// are absent, and unknown ones (with `--lenient`) are not written.
    public var object: InputValue

    /// Refers to a checked `live_activity` object with its event.
    @inlinable
    public init(event: Event, object: InputValue) {
        self.event = event
        self.object = object
    }
}
