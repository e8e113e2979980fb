import PushModel

extension PayloadValidator {
    mutating func readTapAction(_ value: JSONValue, _ path: String) {
        let action = readAction(value, path, isButton: false)
        notification.action = action
        givenFields.append(GivenField(path: path, use: .action(typeIsURL: action?.type == "url")))
    }

    mutating func readButtons(_ value: JSONValue, _ path: String) {
        givenFields.append(GivenField(path: path, use: .actions))
        guard let elements = context.array(value, path) else { return }
        if elements.isEmpty {
            context.error(.invalidItemCount, path, "must hold 1 to 3 actions; remove it when there are no buttons")
        } else if elements.count > 3 {
            context.error(.tooManyActions, path, "holds \(elements.count) actions; at most 3 buttons are shown")
        }
        var buttons: [NotificationAction] = []
        for (index, element) in elements.enumerated() {
            if let action = readAction(element, JSONPointer.appending(path, index), isButton: true) {
                buttons.append(action)
            }
        }
        notification.actions = buttons
    }

    /// Reads an action object (the Acoustic shape); `nil` when it has errors.
    mutating func readAction(_ value: JSONValue, _ path: String, isButton: Bool) -> NotificationAction? {
        guard let object = context.object(value, path) else { return nil }
        let errorsBefore = context.errors.count
        var type: String?
        var action = NotificationAction(type: "")
        for member in object.members {
            func memberPath() -> String { JSONPointer.appending(path, member.name) }
            switch member.name {
            case "type": if member.value != .null { type = context.string(member.value, memberPath()) }
            case "name": if member.value != .null { action.name = context.string(member.value, memberPath()) }
            case "value": if member.value != .null { action.value = member.value }
            case "destructive": if member.value != .null { action.destructive = context.bool(member.value, memberPath()) }
            case "authentication":
                if member.value != .null { action.authentication = context.bool(member.value, memberPath()) }
            case "foreground": if member.value != .null { action.foreground = context.bool(member.value, memberPath()) }
            default: action.customKeys.append(member)
            }
        }
        if object["type"] == nil || object["type"] == .null {
            context.error(.missingField, JSONPointer.appending(path, "type"), "an action needs a type: url, dial, openApp, rich or a custom type")
        }
        if isButton && (object["name"] == nil || object["name"] == .null) {
            context.error(.missingField, JSONPointer.appending(path, "name"), "a button needs a name (its title)")
        }
        if let type { checkValue(of: type, action.value, JSONPointer.appending(path, "value")) }
        action.type = type ?? ""
        return context.errors.count == errorsBefore ? action : nil
    }

    private mutating func checkValue(of type: String, _ value: JSONValue?, _ path: String) {
        guard type == "url" || type == "dial" || type == "rich" else { return }
        guard let value else {
            context.error(.missingField, path, "a \(type) action needs a value")
            return
        }
        guard let text = context.string(value, path) else { return }
        switch type {
        case "url":
            if !URLRules.isAbsoluteURI(text) {
                context.error(.invalidURL, path, "must be an absolute URI with a scheme, such as https://example.com/ or myapp://page")
            }
        case "dial":
            let isDialCharacter: (UInt8) -> Bool = { byte in
                (byte >= 0x30 && byte <= 0x39) || byte == 0x20 || byte == 0x2B || byte == 0x2D || byte == 0x28 || byte == 0x29
            }
            if !text.utf8.allSatisfy(isDialCharacter) {
                context.error(.invalidValue, path, "a phone number may hold only digits, spaces and + - ( )")
            }
        default:
            break
        }
    }

    mutating func readExpandable(_ value: JSONValue, _ path: String) {
        givenFields.append(GivenField(path: path, use: .expandable))
        guard let object = context.object(value, path) else { return }
        var kind: Expandable.Kind?
        var text: String?
        for member in object.members {
            func memberPath() -> String { JSONPointer.appending(path, member.name) }
            switch member.name {
            case "type":
                if member.value != .null {
                    kind = context.choice(member.value, memberPath(), Expandable.Kind.self, choices: ["text", "image"])
                }
            case "value": if member.value != .null { text = context.string(member.value, memberPath()) }
            default: context.unknownField(memberPath(), in: "expandable")
            }
        }
        requireMember(object, "type", path, "expandable needs a type, \"text\" or \"image\"")
        requireMember(object, "value", path, "expandable needs a value: the text, or the image URL")
        if kind == .image, let url = text, !URLRules.isImageURL(url) {
            context.error(.invalidURL, JSONPointer.appending(path, "value"), "an image must be an absolute http or https URL with a host")
            return
        }
        if let kind, let text { notification.expandable = Expandable(kind: kind, value: text) }
    }

    /// Reports `missing_field` when `name` is absent or null in `object`.
    mutating func requireMember(_ object: JSONObject, _ name: String, _ path: String, _ message: String) {
        if object[name] == nil || object[name] == .null {
            context.error(.missingField, JSONPointer.appending(path, name), message)
        }
    }
}
