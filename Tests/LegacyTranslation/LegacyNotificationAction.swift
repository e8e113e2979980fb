import PushModel

/// An action in the Acoustic shape: the tap action, a button, or an expandable action.
public struct NotificationAction: Sendable, Equatable {
    /// The action type: `url`, `dial`, `openApp`, `rich` or a custom type.
    public var type: String
    /// The button title; required for buttons.
    public var name: String?
    /// The value: a string for `url`, `dial` and `rich`; any JSON for other types.
    public var value: JSONValue?
    /// iOS: the button is destructive.
    public var destructive: Bool?
    /// iOS: the button requires authentication.
    public var authentication: Bool?
    /// iOS: the button opens the app in the foreground.
    public var foreground: Bool?
    /// Further keys, kept as they are, in input order.
    public var customKeys: [JSONMember]

    /// Creates an action of `type` with nothing else set.
    public init(type: String) {
        self.type = type
        self.name = nil
        self.value = nil
        self.destructive = nil
        self.authentication = nil
        self.foreground = nil
        self.customKeys = []
    }

    /// The predefined action types of the Acoustic SDK.
    public static let predefinedTypes: Set<String> = ["url", "dial", "openApp", "rich"]
}

/// The Android expanded view.
public struct Expandable: Sendable, Equatable {
    /// What the expanded view shows.
    public enum Kind: String, Sendable, Equatable {
        /// Long text (BigText style).
        case text
        /// An image (BigPicture style); the value is an image URL.
        case image
    }

    /// Text or image.
    public var kind: Kind
    /// The text, or the image URL.
    public var value: String

    /// Creates an expanded view.
    public init(kind: Kind, value: String) {
        self.kind = kind
        self.value = value
    }
}
