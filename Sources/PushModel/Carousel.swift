/// The Adobe Experience Platform carousel template (iOS).
public struct Carousel: Sendable, Equatable {
    /// How the carousel advances.
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// Advances by itself.
        case auto
        /// Advances on user input.
        case manual
    }

    /// How the carousel is laid out.
    public enum Layout: String, Sendable, Equatable, CaseIterable {
        /// Adobe's default layout.
        case `default`
        /// The filmstrip layout.
        case filmstrip
    }

    /// One carousel item.
    public struct Item: Sendable, Equatable {
        /// The image URL (http or https).
        public var image: InputText
        /// The item text.
        public var text: InputText?
        /// The URI opened when the item is tapped.
        public var uri: InputText?

        /// Creates an item.
        public init(image: InputText, text: InputText? = nil, uri: InputText? = nil) {
            self.image = image
            self.text = text
            self.uri = uri
        }
    }

    /// The items, 2...5.
    public var items: [Item]
    /// The mode. Default: `auto`.
    public var mode: Mode = .auto
    /// The layout. Default: `default`.
    public var layout: Layout = .default
    /// The expanded title (`adb_title_ex`).
    public var expandedTitle: InputText?
    /// The expanded body (`adb_body_ex`).
    public var expandedBody: InputText?
    /// The carousel URI (`adb_uri`).
    public var uri: InputText?
    /// Title color, 6 upper-case hex digits without `#`.
    public var titleColor: String?
    /// Body color, 6 upper-case hex digits without `#`.
    public var bodyColor: String?
    /// Background color, 6 upper-case hex digits without `#`.
    public var backgroundColor: String?

    /// Creates a carousel of items with the defaults.
    public init(items: [Item]) { self.items = items }
}
