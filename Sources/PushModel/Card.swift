/// The Facebook In-App Notifications card, format 1.0. Colors are normalized to `#RRGGBBAA` upper case;
/// numbers keep their input text.
public struct Card: Sendable, Equatable {
    /// The card size.
    public enum Size: String, Sendable, Equatable, CaseIterable { case small, medium, large }

    /// The size.
    public var size: Size
    /// `cornerRadius`.
    public var cornerRadius: JSONNumber?
    /// `contentInset`.
    public var contentInset: JSONNumber?
    /// `backdropColor`; written as `#00000000` when not given.
    public var backdropColor: String?
    /// `dismissColor`.
    public var dismissColor: String?
    /// The campaign id (`fb_push_payload.campaign`).
    public var campaign: InputText?
    /// The hero section.
    public var hero: Hero?
    /// The body section.
    public var body: Body?
    /// The actions section.
    public var actions: Actions?

    /// Creates a card of a size with nothing else set.
    public init(size: Size) { self.size = size }

    /// A background: an image, a GIF (hero only) or a color.
    public enum Background: Sendable, Equatable {
        /// An image URL.
        case image(url: InputText)
        /// A GIF URL.
        case gif(url: InputText)
        /// A `#RRGGBBAA` color.
        case color(String)
    }

    /// Styled text.
    public struct StyledText: Sendable, Equatable {
        /// Horizontal text alignment.
        public enum Alignment: String, Sendable, Equatable, CaseIterable { case left, center, right }

        /// The text.
        public var text: InputText
        /// The color, `#RRGGBBAA`; written as `#000000FF` when not given.
        public var color: String?
        /// The font size, > 0.
        public var size: JSONNumber?
        /// The alignment.
        public var align: Alignment?
        /// The font name.
        public var font: InputText?

        /// Creates styled text.
        public init(text: InputText) { self.text = text }
    }

    /// The hero section.
    public struct Hero: Sendable, Equatable {
        /// Vertical content alignment.
        public enum ContentAlignment: String, Sendable, Equatable, CaseIterable { case top, center, bottom }
        /// Height as a fraction of the card, 0...1.
        public var height: JSONNumber?
        /// The background (required).
        public var background: Background
        /// The content.
        public var content: StyledText?
        /// The content alignment.
        public var contentAlign: ContentAlignment?

        /// Creates a hero with a background.
        public init(background: Background) { self.background = background }
    }

    /// The body section.
    public struct Body: Sendable, Equatable {
        /// The background (required).
        public var background: Background
        /// The content.
        public var content: StyledText?

        /// Creates a body with a background.
        public init(background: Background) { self.background = background }
    }

    /// One button.
    public struct Button: Sendable, Equatable {
        /// `backgroundColor`.
        public var backgroundColor: String?
        /// `borderColor`.
        public var borderColor: String?
        /// `borderWidth`.
        public var borderWidth: JSONNumber?
        /// The label.
        public var content: StyledText?
        /// The URL opened on tap.
        public var url: InputText?

        /// Creates a button with nothing set.
        public init() {}
    }

    /// The actions section.
    public struct Actions: Sendable, Equatable {
        /// `attached` or `detached`.
        public enum Style: String, Sendable, Equatable, CaseIterable { case attached, detached }
        /// `horizontal` or `vertical`.
        public enum LayoutStyle: String, Sendable, Equatable, CaseIterable { case horizontal, vertical }
        /// `style`.
        public var style: Style?
        /// `layoutStyle`.
        public var layoutStyle: LayoutStyle?
        /// `background`.
        public var background: Background?
        /// `height`.
        public var height: JSONNumber?
        /// `topInset`.
        public var topInset: JSONNumber?
        /// `contentInset`.
        public var contentInset: JSONNumber?
        /// `cornerRadius`.
        public var cornerRadius: JSONNumber?
        /// The buttons; written as `actions: []` when none.
        public var buttons: [Button] = []

        /// Creates an empty actions section.
        public init() {}
    }
}
