import PushModel

extension PayloadValidator {
    private static let cardActionsKeys: Set<String> = [
        "style", "layout_style", "background", "height", "top_inset", "content_inset", "corner_radius", "buttons",
    ]

    mutating func readCardActions(_ value: JSONValue, _ path: String) -> Card.Actions? {
        guard let object = context.object(value, path) else { return nil }
        var actions = Card.Actions()
        for member in object.members {
            func memberPath() -> String { JSONPointer.appending(path, member.name) }
            if member.value == .null && Self.cardActionsKeys.contains(member.name) { continue }
            switch member.name {
            case "style":
                actions.style = context.choice(member.value, memberPath(), Card.Actions.Style.self, choices: ["attached", "detached"])
            case "layout_style":
                actions.layoutStyle = context.choice(
                    member.value, memberPath(), Card.Actions.LayoutStyle.self, choices: ["horizontal", "vertical"])
            case "background": actions.background = readBackground(member.value, memberPath(), allowsGIF: false)
            case "height": actions.height = context.number(member.value, memberPath())
            case "top_inset": actions.topInset = context.number(member.value, memberPath())
            case "content_inset": actions.contentInset = context.number(member.value, memberPath())
            case "corner_radius": actions.cornerRadius = context.number(member.value, memberPath())
            case "buttons": actions.buttons = readCardButtons(member.value, memberPath())
            default: context.unknownField(memberPath(), in: "the card actions")
            }
        }
        return actions
    }

    private mutating func readCardButtons(_ value: JSONValue, _ path: String) -> [Card.Button] {
        guard let elements = context.array(value, path) else { return [] }
        var buttons: [Card.Button] = []
        for (index, element) in elements.enumerated() {
            let buttonPath = JSONPointer.appending(path, index)
            guard let object = context.object(element, buttonPath) else { continue }
            var button = Card.Button()
            for member in object.members {
                func memberPath() -> String { JSONPointer.appending(buttonPath, member.name) }
                if member.value == .null
                    && ["background_color", "border_color", "border_width", "content", "url"].contains(member.name)
                {
                    continue
                }
                switch member.name {
                case "background_color": button.backgroundColor = readCardColor(member.value, memberPath())
                case "border_color": button.borderColor = readCardColor(member.value, memberPath())
                case "border_width": button.borderWidth = context.number(member.value, memberPath())
                case "content": button.content = readStyledText(member.value, memberPath())
                case "url": button.url = readURI(member.value, memberPath())
                default: context.unknownField(memberPath(), in: "a card button")
                }
            }
            buttons.append(button)
        }
        return buttons
    }
}
