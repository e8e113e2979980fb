import PushModel

extension PayloadValidator {
    mutating func readCard(_ value: JSONValue, _ path: String) {
        givenFields.append(GivenField(path: path, use: .card))
        hasCard = true
        guard let object = context.object(value, path) else { return }
        var card = Card(size: .medium)
        for member in object.members {
            func memberPath() -> String { JSONPointer.appending(path, member.name) }
            if member.value == .null && Self.cardKeys.contains(member.name) { continue }
            switch member.name {
            case "size":
                card.size = context.choice(member.value, memberPath(), Card.Size.self, choices: ["small", "medium", "large"]) ?? .medium
            case "corner_radius": card.cornerRadius = context.number(member.value, memberPath())
            case "content_inset": card.contentInset = context.number(member.value, memberPath())
            case "backdrop_color": card.backdropColor = readCardColor(member.value, memberPath())
            case "dismiss_color": card.dismissColor = readCardColor(member.value, memberPath())
            case "campaign": card.campaign = context.string(member.value, memberPath())
            case "hero": card.hero = readHero(member.value, memberPath())
            case "body": card.body = readCardBody(member.value, memberPath())
            case "actions": card.actions = readCardActions(member.value, memberPath())
            default: context.unknownField(memberPath(), in: "card")
            }
        }
        requireMember(object, "size", path, "a card needs a size: \"small\", \"medium\" or \"large\"")
        notification.card = card
    }

    static let cardKeys: Set<String> = [
        "size", "corner_radius", "content_inset", "backdrop_color", "dismiss_color", "campaign", "hero", "body", "actions",
    ]

    private mutating func readHero(_ value: JSONValue, _ path: String) -> Card.Hero? {
        guard let object = context.object(value, path) else { return nil }
        var hero = Card.Hero(background: .color("#00000000"))
        var background: Card.Background?
        for member in object.members {
            func memberPath() -> String { JSONPointer.appending(path, member.name) }
            if member.value == .null && ["height", "background", "content", "content_align"].contains(member.name) { continue }
            switch member.name {
            case "height": hero.height = context.number(member.value, memberPath(), maximum: 1)
            case "background": background = readBackground(member.value, memberPath(), allowsGIF: true)
            case "content": hero.content = readStyledText(member.value, memberPath())
            case "content_align":
                hero.contentAlign = context.choice(
                    member.value, memberPath(), Card.Hero.ContentAlignment.self, choices: ["top", "center", "bottom"])
            default: context.unknownField(memberPath(), in: "the card hero")
            }
        }
        requireMember(object, "background", path, "a hero needs a background (Android refuses a hero without one)")
        guard let background else { return nil }
        hero.background = background
        return hero
    }

    private mutating func readCardBody(_ value: JSONValue, _ path: String) -> Card.Body? {
        guard let object = context.object(value, path) else { return nil }
        var background: Card.Background?
        var content: Card.StyledText?
        for member in object.members {
            func memberPath() -> String { JSONPointer.appending(path, member.name) }
            if member.value == .null && ["background", "content"].contains(member.name) { continue }
            switch member.name {
            case "background": background = readBackground(member.value, memberPath(), allowsGIF: false)
            case "content": content = readStyledText(member.value, memberPath())
            default: context.unknownField(memberPath(), in: "the card body")
            }
        }
        requireMember(object, "background", path, "a card body needs a background (Android refuses a body without one)")
        guard let background else { return nil }
        var body = Card.Body(background: background)
        body.content = content
        return body
    }

    /// A `#RRGGBB` or `#RRGGBBAA` color, normalized to `#RRGGBBAA` upper case.
    mutating func readCardColor(_ value: JSONValue, _ path: String) -> String? {
        guard let text = context.string(value, path) else { return nil }
        guard let color = ColorRules.cardColor(text) else {
            context.error(.invalidColor, path, "must be a color written #RRGGBB or #RRGGBBAA")
            return nil
        }
        return color
    }

    mutating func readBackground(_ value: JSONValue, _ path: String, allowsGIF: Bool) -> Card.Background? {
        guard let object = context.object(value, path) else { return nil }
        let typePath = JSONPointer.appending(path, "type")
        var type: String?
        if let typeValue = object["type"], typeValue != .null, let text = context.string(typeValue, typePath) {
            if !["image", "gif", "color"].contains(text) {
                context.error(.invalidValue, typePath, "must be one of \"image\", \"gif\", \"color\"")
            } else if text == "gif" && !allowsGIF {
                context.error(.invalidValue, typePath, "a GIF background is only allowed in the hero; use \"image\"")
            } else {
                type = text
            }
        }
        requireMember(object, "type", path, "a background needs a type: \"image\", \"gif\" or \"color\"")
        var url: String?
        var color: String?
        for member in object.members where member.name != "type" {
            if member.value == .null && (member.name == "url" || member.name == "color") { continue }
            func memberPath() -> String { JSONPointer.appending(path, member.name) }
            switch member.name {
            case "url" where type != "color":
                url = readImageURL(member.value, memberPath())
            case "color" where type != "image" && type != "gif":
                color = readCardColor(member.value, memberPath())
            default:
                context.unknownField(memberPath(), in: "a \(type ?? "card") background")
            }
        }
        switch type {
        case "image", "gif":
            requireMember(object, "url", path, "an \(type ?? "image") background needs a url")
            guard let url else { return nil }
            return type == "gif" ? .gif(url: url) : .image(url: url)
        case "color":
            requireMember(object, "color", path, "a color background needs a color, #RRGGBB or #RRGGBBAA")
            return color.map { .color($0) }
        default:
            return nil
        }
    }

    mutating func readStyledText(_ value: JSONValue, _ path: String) -> Card.StyledText? {
        guard let object = context.object(value, path) else { return nil }
        var styled = Card.StyledText(text: "")
        var text: String?
        for member in object.members {
            func memberPath() -> String { JSONPointer.appending(path, member.name) }
            if member.value == .null && ["text", "color", "size", "align", "font"].contains(member.name) { continue }
            switch member.name {
            case "text": text = context.string(member.value, memberPath())
            case "color": styled.color = readCardColor(member.value, memberPath())
            case "size": styled.size = context.number(member.value, memberPath(), exclusive: true)
            case "align":
                styled.align = context.choice(
                    member.value, memberPath(), Card.StyledText.Alignment.self, choices: ["left", "center", "right"])
            case "font": styled.font = context.string(member.value, memberPath())
            default: context.unknownField(memberPath(), in: "styled text")
            }
        }
        requireMember(object, "text", path, "styled text needs a text (iOS crashes without one)")
        guard let text else { return nil }
        styled.text = text
        return styled
    }
}
