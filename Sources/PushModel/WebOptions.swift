/// The web push options of a notification (SPEC 5.6, the payload's `web`), for the `webpush` format.
public struct WebOptions: Sendable, Equatable {
    /// The text direction of a notification (`notification.dir`).
    public enum Direction: String, Sendable, Equatable, CaseIterable {
        /// The browser decides.
        case auto
        /// Left to right.
        case ltr
        /// Right to left.
        case rtl
    }

    /// How urgent a message is to the push service (RFC 8030 section 5.3, the `Urgency` header).
    public enum Urgency: String, Sendable, Equatable, CaseIterable {
        /// Delivered when the device is on power and Wi-Fi.
        case veryLow = "very-low"
        /// Delivered on power or Wi-Fi.
        case low
        /// Delivered unless the battery is low.
        case normal
        /// Delivered at once, even on low battery.
        case high
    }

    /// `notification.navigate`: the absolute `http` or `https` URL the notification opens.
    public var navigate: InputText?
    /// `notification.icon`: an image URL.
    public var icon: InputText?
    /// `notification.lang`: the language tag of the texts.
    public var lang: InputText?
    /// `notification.dir`.
    public var dir: Direction?
    /// Whether `notification.silent: true` is written.
    public var silent = false
    /// Whether `notification.requireInteraction: true` is written.
    public var requireInteraction = false
    /// The top-level `app_badge`, the integer as written in the input.
    public var appBadge: JSONNumber?
    /// Whether the top-level `mutable: true` is written (a service worker may change the notification).
    public var mutable = false
    /// The `webpush-urgency` header; `nil`: from `message.priority`.
    public var urgency: Urgency?
    /// The `webpush-topic` header (RFC 8030 `Topic`: 1 to 32 characters of the URL-safe base64 alphabet).
    public var topic: InputText?

    /// Options with nothing set.
    @inlinable
    public init() {}
}
