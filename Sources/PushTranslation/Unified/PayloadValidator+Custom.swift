import PushModel

extension PayloadValidator {
    /// Loc args spellings with the canonical loc key they need.
    static let argsNeedKey: [(args: CustomKey, key: CustomKey, keySpellings: [CustomKey])] = [
        (.ios_title_loc_args, .ios_title_loc_key, [.ios_title_loc_key]),
        (.ios_loc_args, .ios_loc_key, [.ios_loc_key]),
        (.android_title_loc_args, .android_title_loc_key, [.android_title_loc_key]),
        (.android_body_loc_args, .android_body_loc_key, [.android_body_loc_key, .android_body_loc_key_action]),
        (.android_body_loc_key_args, .android_body_loc_key, [.android_body_loc_key, .android_body_loc_key_action]),
    ]
    /// Alias → canonical spelling.
    static let aliases: [(alias: CustomKey, canonical: CustomKey)] = [
        (.android_body_loc_key_action, .android_body_loc_key), (.android_body_loc_key_args, .android_body_loc_args),
    ]
    /// The aliases and the loc args spellings: without one of them given, neither rule above applies, and
    /// most payloads give none (a test checks that both tables' keys are here).
    static var ruleKeys: CustomKeySet {
        var keys = CustomKeySet()
        keys.insert(.android_body_loc_key_action)
        keys.insert(.android_body_loc_key_args)
        keys.insert(.ios_title_loc_args)
        keys.insert(.ios_loc_args)
        keys.insert(.android_title_loc_args)
        keys.insert(.android_body_loc_args)
        return keys
    }

    /// The pointer of `custom`. A literal, not a parameter: the pointers of its members are made only for
    /// a diagnostic, and closures that make them then capture no `String` to retain.
    private static var path: String { "/custom" }

    /// The pointer of one `custom` member.
    private static func path(_ key: CustomKey) -> String { JSONPointer.appending(path, key.rawValue) }

    mutating func readCustom(_ token: Int) {
        let document = self.document
        let path = Self.path
        guard let object = context.object(token, path) else { return }
        var given = CustomKeySet()
        for (name, key, value) in document.members(object, keyedBy: CustomKey.self) {
            guard let key else {
                context.unknownField(JSONPointer.appending(path, document.string(name)), in: "custom")
                continue
            }
            if document.isNull(value) { continue }
            readCustomMember(key, value)
            given.insert(key)
            givenUses.insert(FieldUse(key))
        }
        guard !given.isDisjoint(with: Self.ruleKeys) else { return }
        for (alias, canonical) in Self.aliases where given.contains(alias) && given.contains(canonical) {
            context.error(
                .invalidValue, JSONPointer.appending(path, alias.rawValue),
                "\(alias.rawValue) is an alias of \(canonical.rawValue); give only one of them")
        }
        // One report per missing key, whatever the spelling of its args (SPEC 9: one problem, one report).
        var reported = CustomKeySet()
        for rule in Self.argsNeedKey
        where given.contains(rule.args) && !rule.keySpellings.contains(where: given.contains)
            && !reported.contains(rule.key)
        {
            reported.insert(rule.key)
            context.error(
                .missingField, JSONPointer.appending(path, rule.key.rawValue),
                "\(rule.args.rawValue) is given without \(rule.key.rawValue); add the localization key the arguments fill in"
            )
        }
    }

    /// Reads one non-null `custom` member.
    private mutating func readCustomMember(_ key: CustomKey, _ value: Int) {
        let document = self.document
        func path() -> String { Self.path(key) }
        switch key {
        case .ios_badge:
            if context.integer(value, path(), in: 0...Int64(Int32.max)) != nil {
                notification.ios.badge = InputValue(token: value)
            }
        case .ios_content_available: notification.ios.contentAvailable = context.bool(value, path()) ?? false
        case .ios_mutable_content: notification.ios.mutableContent = context.bool(value, path()) ?? false
        case .ios_sound: notification.ios.sound = context.string(value, path())
        case .ios_category: notification.ios.category = context.string(value, path())
        case .ios_launch_image: notification.ios.launchImage = context.string(value, path())
        case .ios_title_loc_key: notification.ios.titleLocKey = context.string(value, path())
        case .ios_action_loc_key: notification.ios.actionLocKey = context.string(value, path())
        case .ios_loc_key: notification.ios.locKey = context.string(value, path())
        case .ios_title_loc_args: notification.ios.titleLocArgs = readLocArgs(value, path())
        case .ios_loc_args: notification.ios.locArgs = readLocArgs(value, path())
        case .android_channel_id: notification.android.channelID = context.string(value, path())
        case .android_click_action: notification.android.clickAction = context.string(value, path())
        case .android_icon: notification.android.icon = context.string(value, path())
        case .android_sound: notification.android.sound = context.string(value, path())
        case .android_title_loc_key: notification.android.titleLocKey = context.string(value, path())
        case .android_body_loc_key, .android_body_loc_key_action:
            if let key = context.string(value, path()) { notification.android.bodyLocKey = key }
        case .android_title_loc_args: notification.android.titleLocArgs = readLocArgs(value, path())
        case .android_body_loc_args, .android_body_loc_key_args:
            if let args = readLocArgs(value, path()) { notification.android.bodyLocArgs = args }
        case .android_led_color:
            guard let text = context.string(value, path()) else { break }
            if let color = document.withDecodedBytes(text, ColorRules.androidLEDColor) {
                notification.android.ledColor = color
            } else {
                context.error(.invalidColor, path(), "must be a color written #RRGGBB")
            }
        }
    }

    /// An array of non-empty strings, or one string taken as a one-element array.
    private mutating func readLocArgs(_ value: Int, _ path: @autoclosure () -> String) -> LocArgs? {
        let document = self.document
        switch document.kind(value) {
        case .string:
            return context.string(value, path()).map { .single($0) }
        case .array:
            var valid = true
            let base = path()
            for (index, element) in document.elements(value).enumerated()
            where context.string(element, JSONPointer.appending(base, index)) == nil {
                valid = false
            }
            return valid ? .array(InputValue(token: value)) : nil
        default:
            context.wrongType(path(), expected: "an array of strings or a string", got: value)
            return nil
        }
    }
}

/// A set of `custom` keys (a bit set: no allocation).
struct CustomKeySet {
    private var bits: UInt32 = 0
    private static func bit(_ key: CustomKey) -> UInt32 { 1 << UInt32(key.ordinal) }

    mutating func insert(_ key: CustomKey) { bits |= Self.bit(key) }
    func contains(_ key: CustomKey) -> Bool { bits & Self.bit(key) != 0 }
    func isDisjoint(with other: CustomKeySet) -> Bool { bits & other.bits == 0 }
}
