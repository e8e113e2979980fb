import PushModel

extension PayloadValidator {
    /// Loc args spellings with the canonical loc key they need.
    private static let argsNeedKey: [(args: String, key: String, keySpellings: [String])] = [
        ("ios_title_loc_args", "ios_title_loc_key", ["ios_title_loc_key"]),
        ("ios_loc_args", "ios_loc_key", ["ios_loc_key"]),
        ("android_title_loc_args", "android_title_loc_key", ["android_title_loc_key"]),
        ("android_body_loc_args", "android_body_loc_key", ["android_body_loc_key", "android_body_loc_key_action"]),
        ("android_body_loc_key_args", "android_body_loc_key", ["android_body_loc_key", "android_body_loc_key_action"]),
    ]
    /// Alias → canonical spelling.
    private static let aliases = [
        ("android_body_loc_key_action", "android_body_loc_key"), ("android_body_loc_key_args", "android_body_loc_args"),
    ]

    mutating func readCustom(_ value: JSONValue, _ path: String) {
        guard let object = context.object(value, path) else { return }
        var given: [String] = []
        for member in object.members {
            let name = member.name
            func memberPath() -> String { JSONPointer.appending(path, name) }
            if case .null = member.value, Self.isKnownCustomKey(name) { continue }
            guard readCustomMember(name, member.value, memberPath()) else {
                context.unknownField(memberPath(), in: "custom")
                continue
            }
            given.append(name)
            givenFields.append(GivenField(parent: path, name: member.name, use: name.hasPrefix("ios_") ? .apnsDelivered : .noFormat))
        }
        guard !given.isEmpty else { return }
        for (alias, canonical) in Self.aliases where given.contains(alias) && given.contains(canonical) {
            context.error(
                .invalidValue, JSONPointer.appending(path, alias),
                "\(alias) is an alias of \(canonical); give only one of them")
        }
        for rule in Self.argsNeedKey where given.contains(rule.args) && !rule.keySpellings.contains(where: given.contains) {
            context.error(
                .missingField, JSONPointer.appending(path, rule.key),
                "\(rule.args) is given without \(rule.key); add the localization key the arguments fill in")
        }
    }

    private static func isKnownCustomKey(_ name: String) -> Bool {
        var probe = PayloadValidator(lenient: true)
        return probe.readCustomMember(name, .null, "")
    }

    /// Reads one `custom` member; `false` when the name is not a `custom` key.
    private mutating func readCustomMember(_ name: String, _ value: JSONValue, _ path: String) -> Bool {
        let isProbe = value == .null
        switch name {
        case "ios_badge":
            if !isProbe { notification.ios.badge = context.integer(value, path, in: 0...Int64(Int32.max))?.0 }
        case "ios_content_available":
            if !isProbe { notification.ios.contentAvailable = context.bool(value, path) ?? false }
        case "ios_mutable_content":
            if !isProbe { notification.ios.mutableContent = context.bool(value, path) ?? false }
        case "ios_sound": if !isProbe { notification.ios.sound = context.string(value, path) }
        case "ios_category": if !isProbe { notification.ios.category = context.string(value, path) }
        case "ios_launch_image": if !isProbe { notification.ios.launchImage = context.string(value, path) }
        case "ios_title_loc_key": if !isProbe { notification.ios.titleLocKey = context.string(value, path) }
        case "ios_action_loc_key": if !isProbe { notification.ios.actionLocKey = context.string(value, path) }
        case "ios_loc_key": if !isProbe { notification.ios.locKey = context.string(value, path) }
        case "ios_title_loc_args": if !isProbe { notification.ios.titleLocArgs = readLocArgs(value, path) }
        case "ios_loc_args": if !isProbe { notification.ios.locArgs = readLocArgs(value, path) }
        case "android_channel_id": if !isProbe { notification.android.channelID = context.string(value, path) }
        case "android_click_action": if !isProbe { notification.android.clickAction = context.string(value, path) }
        case "android_icon": if !isProbe { notification.android.icon = context.string(value, path) }
        case "android_sound": if !isProbe { notification.android.sound = context.string(value, path) }
        case "android_title_loc_key": if !isProbe { notification.android.titleLocKey = context.string(value, path) }
        case "android_body_loc_key", "android_body_loc_key_action":
            if !isProbe, let key = context.string(value, path) { notification.android.bodyLocKey = key }
        case "android_title_loc_args": if !isProbe { notification.android.titleLocArgs = readLocArgs(value, path) }
        case "android_body_loc_args", "android_body_loc_key_args":
            if !isProbe, let args = readLocArgs(value, path) { notification.android.bodyLocArgs = args }
        case "android_led_color":
            guard !isProbe, let text = context.string(value, path) else { break }
            if ColorRules.isAndroidLEDColor(text) {
                notification.android.ledColor = text
            } else {
                context.error(.invalidColor, path, "must be a color written #RRGGBB")
            }
        default:
            return false
        }
        return true
    }

    /// An array of non-empty strings, or one string taken as a one-element array.
    private mutating func readLocArgs(_ value: JSONValue, _ path: String) -> [String]? {
        switch value {
        case .string:
            return context.string(value, path).map { [$0] }
        case .array(let elements):
            var args: [String] = []
            var valid = true
            for (index, element) in elements.enumerated() {
                if let text = context.string(element, JSONPointer.appending(path, index)) {
                    args.append(text)
                } else {
                    valid = false
                }
            }
            return valid ? args : nil
        default:
            context.wrongType(path, expected: "an array of strings or a string", got: value)
            return nil
        }
    }
}
