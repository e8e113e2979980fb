import PushModel

extension PayloadValidator {
    mutating func readCardActions(_ token: Int, _ path: @autoclosure () -> String) -> Card.Actions? {
        let document = self.document
        guard let object = context.object(token, path()) else { return nil }
        var actions = Card.Actions()
        for (name, key, value) in document.members(object, keyedBy: CardActionsKey.self) {
            if key != nil && document.isNull(value) { continue }
            func memberPath() -> String { JSONPointer.appending(path(), document.string(name)) }
            switch key {
            case .style:
                actions.style = context.choice(
                    value, memberPath(), Card.Actions.Style.self, choices: ["attached", "detached"])
            case .layout_style:
                actions.layoutStyle = context.choice(
                    value, memberPath(), Card.Actions.LayoutStyle.self, choices: ["horizontal", "vertical"])
            case .background: actions.background = readBackground(value, memberPath(), allowsGIF: false)
            case .height: actions.height = context.number(value, memberPath())
            case .top_inset: actions.topInset = context.number(value, memberPath())
            case .content_inset: actions.contentInset = context.number(value, memberPath())
            case .corner_radius: actions.cornerRadius = context.number(value, memberPath())
            case .buttons: actions.buttons = readCardButtons(value, memberPath())
            case nil: context.unknownField(memberPath(), in: "the card actions")
            }
        }
        return actions
    }

    private mutating func readCardButtons(_ token: Int, _ path: @autoclosure () -> String) -> [Card.Button] {
        let document = self.document
        guard let array = context.array(token, path()) else { return [] }
        var buttons: [Card.Button] = []
        for (index, element) in document.elements(array).enumerated() {
            func buttonPath() -> String { JSONPointer.appending(path(), index) }
            guard let object = context.object(element, buttonPath()) else { continue }
            var button = Card.Button()
            for (name, key, value) in document.members(object, keyedBy: CardButtonKey.self) {
                if key != nil && document.isNull(value) { continue }
                func memberPath() -> String { JSONPointer.appending(buttonPath(), document.string(name)) }
                switch key {
                case .background_color: button.backgroundColor = readCardColor(value, memberPath())
                case .border_color: button.borderColor = readCardColor(value, memberPath())
                case .border_width: button.borderWidth = context.number(value, memberPath())
                case .content: button.content = readStyledText(value, memberPath())
                case .url: button.url = readURI(value, memberPath())
                case nil: context.unknownField(memberPath(), in: "a card button")
                }
            }
            buttons.append(button)
        }
        return buttons
    }
}
