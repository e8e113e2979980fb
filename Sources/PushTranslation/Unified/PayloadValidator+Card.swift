import PushModel

extension PayloadValidator {
    mutating func readCard(_ token: Int, _ path: @autoclosure () -> String) {
        let document = self.document
        givenUses.insert(.card)
        hasCard = true
        guard let object = context.object(token, path()) else { return }
        var card = Card(size: .medium)
        for (name, key, value) in document.members(object, keyedBy: CardKey.self) {
            if key != nil && document.isNull(value) { continue }
            func memberPath() -> String { JSONPointer.appending(path(), document.string(name)) }
            switch key {
            case .size:
                card.size =
                    context.choice(value, memberPath(), Card.Size.self, choices: ["small", "medium", "large"])
                    ?? .medium
            case .corner_radius: card.cornerRadius = context.number(value, memberPath())
            case .content_inset: card.contentInset = context.number(value, memberPath())
            case .backdrop_color: card.backdropColor = readCardColor(value, memberPath())
            case .dismiss_color: card.dismissColor = readCardColor(value, memberPath())
            case .campaign: card.campaign = context.string(value, memberPath())
            case .hero: card.hero = readHero(value, memberPath())
            case .body: card.body = readCardBody(value, memberPath())
            case .actions: card.actions = readCardActions(value, memberPath())
            case nil: context.unknownField(memberPath(), in: "card")
            }
        }
        requireMember(object, "size", path(), "a card needs a size: \"small\", \"medium\" or \"large\"")
        notification.card = card
    }

    private mutating func readHero(_ token: Int, _ path: @autoclosure () -> String) -> Card.Hero? {
        let document = self.document
        guard let object = context.object(token, path()) else { return nil }
        var height: JSONNumber?
        var background: Card.Background?
        var content: Card.StyledText?
        var contentAlign: Card.Hero.ContentAlignment?
        for (name, key, value) in document.members(object, keyedBy: HeroKey.self) {
            if key != nil && document.isNull(value) { continue }
            func memberPath() -> String { JSONPointer.appending(path(), document.string(name)) }
            switch key {
            case .height: height = context.number(value, memberPath(), maximum: 1)
            case .background: background = readBackground(value, memberPath(), allowsGIF: true)
            case .content: content = readStyledText(value, memberPath())
            case .content_align:
                contentAlign = context.choice(
                    value, memberPath(), Card.Hero.ContentAlignment.self, choices: ["top", "center", "bottom"])
            case nil: context.unknownField(memberPath(), in: "the card hero")
            }
        }
        requireMember(object, "background", path(), "a hero needs a background (Android refuses a hero without one)")
        guard let background else { return nil }
        var hero = Card.Hero(background: background)
        hero.height = height
        hero.content = content
        hero.contentAlign = contentAlign
        return hero
    }

    private mutating func readCardBody(_ token: Int, _ path: @autoclosure () -> String) -> Card.Body? {
        let document = self.document
        guard let object = context.object(token, path()) else { return nil }
        var background: Card.Background?
        var content: Card.StyledText?
        for (name, key, value) in document.members(object, keyedBy: CardBodyKey.self) {
            if key != nil && document.isNull(value) { continue }
            func memberPath() -> String { JSONPointer.appending(path(), document.string(name)) }
            switch key {
            case .background: background = readBackground(value, memberPath(), allowsGIF: false)
            case .content: content = readStyledText(value, memberPath())
            case nil: context.unknownField(memberPath(), in: "the card body")
            }
        }
        requireMember(
            object, "background", path(), "a card body needs a background (Android refuses a body without one)")
        guard let background else { return nil }
        var body = Card.Body(background: background)
        body.content = content
        return body
    }

    /// A `#RRGGBB` or `#RRGGBBAA` color, normalized to `#RRGGBBAA` upper case.
    mutating func readCardColor(_ token: Int, _ path: @autoclosure () -> String) -> String? {
        let document = self.document
        guard let text = context.string(token, path()) else { return nil }
        guard let color = document.withDecodedBytes(text, ColorRules.cardColor) else {
            context.error(.invalidColor, path(), "must be a color written #RRGGBB or #RRGGBBAA")
            return nil
        }
        return color
    }

    mutating func readStyledText(_ token: Int, _ path: @autoclosure () -> String) -> Card.StyledText? {
        let document = self.document
        guard let object = context.object(token, path()) else { return nil }
        var text: InputText?
        var color: String?
        var size: JSONNumber?
        var align: Card.StyledText.Alignment?
        var font: InputText?
        for (name, key, value) in document.members(object, keyedBy: StyledTextKey.self) {
            if key != nil && document.isNull(value) { continue }
            func memberPath() -> String { JSONPointer.appending(path(), document.string(name)) }
            switch key {
            case .text: text = context.string(value, memberPath())
            case .color: color = readCardColor(value, memberPath())
            case .size: size = context.number(value, memberPath(), exclusive: true)
            case .align:
                align = context.choice(
                    value, memberPath(), Card.StyledText.Alignment.self, choices: ["left", "center", "right"])
            case .font: font = context.string(value, memberPath())
            case nil: context.unknownField(memberPath(), in: "styled text")
            }
        }
        requireMember(object, "text", path(), "styled text needs a text (iOS crashes without one)")
        guard let text else { return nil }
        var styled = Card.StyledText(text: text)
        styled.color = color
        styled.size = size
        styled.align = align
        styled.font = font
        return styled
    }
}
