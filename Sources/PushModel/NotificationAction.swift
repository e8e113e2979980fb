/// An action in the Acoustic shape: the tap action, a button, or an expandable action.
public struct NotificationAction: Sendable, Equatable {
    /// What the action's type is.
    public enum Kind: Sendable, Equatable {
        /// `url`: the value is an absolute URI.
        case url
        /// `dial`: the value is a phone number.
        case dial
        /// `openApp`: the value is optional, any JSON.
        case openApp
        /// `rich`: the value is a string.
        case rich
        /// Any other type.
        case custom
    }

    /// The action object in the input; its further keys (custom data) are written from it.
    public var object: InputValue
    /// The action type as written: `url`, `dial`, `openApp`, `rich` or a custom type.
    public var type: InputText
    /// The kind of ``type``.
    public var kind: Kind
    /// The button title; required for buttons.
    public var name: InputText?
    /// The value: a string for `url`, `dial` and `rich`; any JSON for other types.
    public var value: InputValue?
    /// iOS: the button is destructive.
    public var destructive: Bool?
    /// iOS: the button requires authentication.
    public var authentication: Bool?
    /// iOS: the button opens the app in the foreground.
    public var foreground: Bool?
    /// Whether ``object`` may have members other than the shape's keys (custom data to write). True
    /// unless whoever read the object counted them: the writer then looks at each member.
    public var hasCustomMembers: Bool

    /// Creates an action of `type` with nothing else set.
    public init(object: InputValue, type: InputText, kind: Kind) {
        self.object = object
        self.type = type
        self.kind = kind
        self.name = nil
        self.value = nil
        self.destructive = nil
        self.authentication = nil
        self.foreground = nil
        self.hasCustomMembers = true
    }

    /// The keys of the action shape; every other key of an action object is custom data.
    public static let shapeKeys: [StaticString] = [
        "type", "name", "value", "destructive", "authentication", "foreground",
    ]
}

/// The buttons of a notification: 1 to 3 actions, stored inline (no heap allocation).
public struct ActionList: Sendable, Equatable, RandomAccessCollection {
    /// The most buttons a notification has.
    public static let capacity = 3

    private var first: NotificationAction?
    private var second: NotificationAction?
    private var third: NotificationAction?
    /// The number of actions.
    public private(set) var count = 0

    /// An empty list.
    public init() {}

    /// Appends `action`; an action beyond ``capacity`` is not kept (validation refuses more than 3).
    public mutating func append(_ action: NotificationAction) {
        switch count {
        case 0: first = action
        case 1: second = action
        case 2: third = action
        default: return
        }
        count += 1
    }

    /// The first index, 0.
    public var startIndex: Int { 0 }
    /// One past the last index.
    public var endIndex: Int { count }

    /// The action at `position` (0 ..< count; another index is a programming error, as for `Array`).
    public subscript(position: Int) -> NotificationAction {
        let action: NotificationAction? =
            switch position {
            case 0: first
            case 1: second
            default: third
            }
        guard let action, position < count else {
            preconditionFailure("ActionList index \(position) out of range 0..<\(count)")
        }
        return action
    }
}

/// The Android expanded view.
public struct Expandable: Sendable, Equatable {
    /// What the expanded view shows.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// Long text (BigText style).
        case text
        /// An image (BigPicture style); the value is an image URL.
        case image
    }

    /// Text or image.
    public var kind: Kind
    /// The text, or the image URL.
    public var value: InputText

    /// Creates an expanded view.
    public init(kind: Kind, value: InputText) {
        self.kind = kind
        self.value = value
    }
}
