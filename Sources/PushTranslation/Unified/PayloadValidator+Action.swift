import PushModel

extension PayloadValidator {
    mutating func readTapAction(_ token: Int, _ path: String) {
        let action = readAction(token, path, isButton: false)
        notification.action = action
        givenUses.insert(action?.kind == .url ? .actionURL : .actionOther)
    }

    mutating func readButtons(_ token: Int, _ path: String) {
        let document = self.document
        givenUses.insert(.actions)
        guard let array = context.array(token, path) else { return }
        let count = document.count(array)
        if count == 0 {
            context.error(.invalidItemCount, path, "must hold 1 to 3 actions; remove it when there are no buttons")
        } else if count > ActionList.capacity {
            context.error(.tooManyActions, path, "holds \(count) actions; at most 3 buttons are shown")
        }
        var buttons = ActionList()
        for (index, element) in document.elements(array).enumerated() {
            if let action = readAction(element, JSONPointer.appending(path, index), isButton: true) {
                buttons.append(action)
            }
        }
        notification.actions = buttons
    }

    /// Reads an action object (the Acoustic shape); `nil` when it has errors. Inlined into its two callers
    /// so that the action, a large value, is built where it is stored rather than copied there.
    @inline(__always)
    mutating func readAction(_ token: Int, _ path: @autoclosure () -> String, isButton: Bool) -> NotificationAction? {
        let document = self.document
        guard let object = context.object(token, path()) else { return nil }
        let errorsBefore = context.errors.count
        var type: InputText?
        var name: InputText?
        var value: Int?
        var destructive: Bool?
        var authentication: Bool?
        var foreground: Bool?
        // Whether `type` and `name` are given (not null), for `missing_field`: seen here rather than
        // searched for again (member names are unique).
        var hasType = false
        var hasName = false
        var shapeMembers = 0
        for (_, key, memberValue) in document.members(object, keyedBy: ActionKey.self) {
            guard let key else { continue }
            shapeMembers += 1
            guard !document.isNull(memberValue) else { continue }
            switch key {
            case .type:
                hasType = true
                type = context.string(memberValue, JSONPointer.appending(path(), "type"))
            case .name:
                hasName = true
                name = context.string(memberValue, JSONPointer.appending(path(), "name"))
            case .value: value = memberValue
            case .destructive: destructive = context.bool(memberValue, JSONPointer.appending(path(), "destructive"))
            case .authentication:
                authentication = context.bool(memberValue, JSONPointer.appending(path(), "authentication"))
            case .foreground: foreground = context.bool(memberValue, JSONPointer.appending(path(), "foreground"))
            }
        }
        if !hasType {
            context.error(
                .missingField, JSONPointer.appending(path(), "type"),
                "an action needs a type: url, dial, openApp, rich or a custom type")
        }
        if isButton && !hasName {
            context.error(.missingField, JSONPointer.appending(path(), "name"), "a button needs a name (its title)")
        }
        guard let type else { return nil }
        let kind = Self.actionKind(type, document)
        checkValue(of: kind, type, value, JSONPointer.appending(path(), "value"))
        guard context.errors.count == errorsBefore else { return nil }
        var action = NotificationAction(object: InputValue(token: object), type: type, kind: kind)
        action.name = name
        action.value = value.map(InputValue.init(token:))
        action.destructive = destructive
        action.authentication = authentication
        action.foreground = foreground
        action.hasCustomMembers = shapeMembers < document.count(object)
        return action
    }

    /// The kind of an action's `type`. Static: a method of the validator (a large value) called from a
    /// mutating one was given a copy of it.
    private static func actionKind(_ type: InputText, _ document: JSONDocument) -> NotificationAction.Kind {
        if document.textEquals(type, "url") { return .url }
        if document.textEquals(type, "dial") { return .dial }
        if document.textEquals(type, "openApp") { return .openApp }
        if document.textEquals(type, "rich") { return .rich }
        return .custom
    }

    private mutating func checkValue(
        of kind: NotificationAction.Kind, _ type: InputText, _ value: Int?, _ path: @autoclosure () -> String
    ) {
        let document = self.document
        guard kind == .url || kind == .dial || kind == .rich else { return }
        guard let value else {
            context.error(.missingField, path(), "a \(document.string(type)) action needs a value")
            return
        }
        guard let text = context.string(value, path()) else { return }
        switch kind {
        case .url:
            if !document.withDecodedBytes(text, URLRules.isAbsoluteURI(bytes:)) {
                context.error(
                    .invalidURL, path(),
                    "must be an absolute URI with a scheme, such as https://example.com/ or myapp://page")
            }
        case .dial:
            let isDialCharacter: (UInt8) -> Bool = { byte in
                (byte >= 0x30 && byte <= 0x39) || byte == 0x20 || byte == 0x2B || byte == 0x2D || byte == 0x28
                    || byte == 0x29
            }
            if !document.withDecodedBytes(text, { $0.allSatisfy(isDialCharacter) }) {
                context.error(.invalidValue, path(), "a phone number may hold only digits, spaces and + - ( )")
            }
        default:
            break
        }
    }

    mutating func readExpandable(_ token: Int, _ path: String) {
        let document = self.document
        givenUses.insert(.expandable)
        guard let object = context.object(token, path) else { return }
        var kind: Expandable.Kind?
        var text: InputText?
        var hasType = false
        var hasValue = false
        for (name, key, value) in document.members(object, keyedBy: ExpandableKey.self) {
            switch key {
            case .type:
                guard !document.isNull(value) else { continue }
                hasType = true
                kind = context.choice(
                    value, JSONPointer.appending(path, "type"), Expandable.Kind.self, choices: ["text", "image"])
            case .value:
                guard !document.isNull(value) else { continue }
                hasValue = true
                text = context.string(value, JSONPointer.appending(path, "value"))
            case nil: context.unknownField(JSONPointer.appending(path, document.string(name)), in: "expandable")
            }
        }
        requireMember(hasType, "type", path, "expandable needs a type, \"text\" or \"image\"")
        requireMember(hasValue, "value", path, "expandable needs a value: the text, or the image URL")
        if kind == .image, let url = text, !document.withDecodedBytes(url, URLRules.isImageURL(bytes:)) {
            context.error(
                .invalidURL, JSONPointer.appending(path, "value"),
                "an image must be an absolute http or https URL with a host")
            return
        }
        if let kind, let text { notification.expandable = Expandable(kind: kind, value: text) }
    }

    /// Reports `missing_field` when `name` is absent or null in the object at `object`.
    mutating func requireMember(
        _ object: Int, _ name: StaticString, _ path: @autoclosure () -> String, _ message: @autoclosure () -> String
    ) {
        requireMember(!document.isAbsentOrNull(object, name), name, path(), message())
    }

    /// Reports `missing_field` for `name` unless `isGiven`: for a reader that saw the member (not null) in
    /// its member loop and need not search the object again (member names are unique).
    mutating func requireMember(
        _ isGiven: Bool, _ name: StaticString, _ path: @autoclosure () -> String, _ message: @autoclosure () -> String
    ) {
        if !isGiven { context.error(.missingField, JSONPointer.appending(path(), "\(name)"), message()) }
    }
}
