import PushModel

extension PayloadValidator {
    /// The string keys of `custom`, each with where its value goes.
    private static let iosStringKeys: [String: WritableKeyPath<IOSOptions, String?> & Sendable] = [
        "ios_sound": \.sound, "ios_category": \.category, "ios_launch_image": \.launchImage,
        "ios_title_loc_key": \.titleLocKey, "ios_action_loc_key": \.actionLocKey, "ios_loc_key": \.locKey,
    ]
    private static let androidStringKeys: [String: WritableKeyPath<AndroidOptions, String?> & Sendable] = [
        "android_channel_id": \.channelID, "android_click_action": \.clickAction, "android_icon": \.icon,
        "android_sound": \.sound, "android_title_loc_key": \.titleLocKey, "android_body_loc_key": \.bodyLocKey,
        "android_body_loc_key_action": \.bodyLocKey,
    ]
    /// Loc args key → (canonical loc key, where the args go).
    private static let iosArgsKeys: [String: (key: String, target: WritableKeyPath<IOSOptions, [String]?> & Sendable)] = [
        "ios_title_loc_args": ("ios_title_loc_key", \.titleLocArgs), "ios_loc_args": ("ios_loc_key", \.locArgs),
    ]
    private static let androidArgsKeys: [String: (key: String, target: WritableKeyPath<AndroidOptions, [String]?> & Sendable)] = [
        "android_title_loc_args": ("android_title_loc_key", \.titleLocArgs),
        "android_body_loc_args": ("android_body_loc_key", \.bodyLocArgs),
        "android_body_loc_key_args": ("android_body_loc_key", \.bodyLocArgs),
    ]
    /// Alias → canonical spelling.
    private static let aliases = [
        "android_body_loc_key_action": "android_body_loc_key", "android_body_loc_key_args": "android_body_loc_args",
    ]
    /// Each loc key with the spellings that give it.
    private static let locKeySpellings = [
        "ios_title_loc_key": ["ios_title_loc_key"], "ios_loc_key": ["ios_loc_key"],
        "android_title_loc_key": ["android_title_loc_key"],
        "android_body_loc_key": ["android_body_loc_key", "android_body_loc_key_action"],
    ]

    mutating func readCustom(_ value: JSONValue, _ path: String) {
        guard let object = context.object(value, path) else { return }
        var given = Set<String>()
        for member in object.members {
            let name = member.name
            let memberPath = JSONPointer.appending(path, name)
            let known = Self.isKnownCustomKey(name)
            if !known {
                context.unknownField(memberPath, in: "custom")
                continue
            }
            if member.value == .null { continue }
            given.insert(name)
            givenFields.append(GivenField(path: memberPath, use: name.hasPrefix("ios_") ? .apnsDelivered : .noFormat))
            readCustomMember(name, member.value, memberPath)
        }
        for (alias, canonical) in Self.aliases where given.contains(alias) && given.contains(canonical) {
            context.error(
                .invalidValue, JSONPointer.appending(path, alias),
                "\(alias) is an alias of \(canonical); give only one of them")
        }
        for (argsKey, entry) in Self.iosArgsKeys.map({ ($0.key, $0.value.key) }) + Self.androidArgsKeys.map({ ($0.key, $0.value.key) })
        where given.contains(argsKey) {
            let spellings = Self.locKeySpellings[entry] ?? [entry]
            if !spellings.contains(where: given.contains) {
                context.error(
                    .missingField, JSONPointer.appending(path, entry),
                    "\(argsKey) is given without \(entry); add the localization key the arguments fill in")
            }
        }
    }

    private static func isKnownCustomKey(_ name: String) -> Bool {
        iosStringKeys[name] != nil || androidStringKeys[name] != nil || iosArgsKeys[name] != nil
            || androidArgsKeys[name] != nil
            || ["ios_badge", "ios_content_available", "ios_mutable_content", "android_led_color"].contains(name)
    }

    private mutating func readCustomMember(_ name: String, _ value: JSONValue, _ path: String) {
        if let target = Self.iosStringKeys[name] {
            notification.ios[keyPath: target] = context.string(value, path)
        } else if let target = Self.androidStringKeys[name] {
            if let text = context.string(value, path) { notification.android[keyPath: target] = text }
        } else if let entry = Self.iosArgsKeys[name] {
            notification.ios[keyPath: entry.target] = readLocArgs(value, path)
        } else if let entry = Self.androidArgsKeys[name] {
            if let args = readLocArgs(value, path) { notification.android[keyPath: entry.target] = args }
        } else {
            switch name {
            case "ios_badge":
                notification.ios.badge = context.integer(value, path, in: 0...Int64(Int32.max))?.0
            case "ios_content_available":
                notification.ios.contentAvailable = context.bool(value, path) ?? false
            case "ios_mutable_content":
                notification.ios.mutableContent = context.bool(value, path) ?? false
            case "android_led_color":
                guard let text = context.string(value, path) else { return }
                if ColorRules.isAndroidLEDColor(text) {
                    notification.android.ledColor = text
                } else {
                    context.error(.invalidColor, path, "must be a color written #RRGGBB")
                }
            default:
                break
            }
        }
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
