extension PayloadGenerator {
    /// One unified payload covering a random selection of every field.
    mutating func payload() -> String {
        var members: [(String, String)] = []
        if chance(50) {
            let id =
                valid
                ? "\"id-\(below(1000))\\u00e9\"" : chance(3) ? "\"" + String(repeating: "i", count: 129) + "\"" : text()
            members.append(("id", maybeWrong(id)))
        }
        if webSections {
            members.append(("platform", #"{"web":true}"#))
            members.append(("web", maybeWrong(web())))
        } else if chance(30) {
            members.append(("platform", maybeWrong(platform())))
        }
        if chance(valid ? 0 : 15) { members.append(("targets", maybeWrong(targets()))) }
        if chance(90) { members.append(("message", maybeWrong(message()))) }
        if chance(60) { members.append(("data", maybeWrong(data()))) }
        if chance(60) { members.append(("custom", maybeWrong(custom()))) }
        if chance(20) { members.append(("dry_run", maybeWrong(bool()))) }
        if chance(30) {
            members.append(
                ("collapse_id", maybeWrong(chance(5) ? "\"" + String(repeating: "c", count: 65) + "\"" : text())))
        }
        if chance(20) { members.append(("thread_id", maybeWrong(text()))) }
        if chance(30) { members.append(("action", maybeWrong(action(button: false)))) }
        if chance(30) { members.append(("actions", maybeWrong(actions()))) }
        if chance(20) { members.append(("expandable", maybeWrong(expandable()))) }
        let template = below(10)
        if liveActivitySections {
            members.append(("live_activity", maybeWrong(liveActivity())))
            // Now and then a second template, which is ambiguous_template.
            if template == 0 { members.append(chance(50) ? ("carousel", carousel()) : ("card", card())) }
        } else {
            if template < 2 { members.append(("carousel", maybeWrong(carousel()))) }
            if template >= 8 || (!valid && template == 1) { members.append(("card", maybeWrong(card()))) }
        }
        if chance(5) { members.append((pick(["unknown", "Message", "a~b/c", "\\u0069d"]), anyValue())) }
        shuffle(&members)
        return object(members)
    }

    mutating func shuffle(_ members: inout [(String, String)]) {
        guard members.count > 1 else { return }
        for index in stride(from: members.count - 1, to: 0, by: -1) { members.swapAt(index, below(index + 1)) }
    }

    mutating func platform() -> String {
        let members = some(["ios", "android", "web"], percent: 60) { g, name in
            name == "web" ? "true" : g.maybeWrong(g.bool())
        }
        return object(members)
    }

    /// A `web` section (SPEC 5.6), for ``webSections``.
    mutating func web() -> String {
        let names = [
            "navigate", "icon", "lang", "dir", "silent", "require_interaction", "app_badge", "mutable", "urgency",
            "topic", "colour",
        ]
        return object(
            some(names, percent: 60) { g, name in
                switch name {
                case "navigate": g.chance(90) ? g.url() : "\"https://shop.example/p\""
                case "icon": g.maybeWrong(g.url())
                case "dir": g.maybeWrong(g.either("\"rtl\"", ["\"auto\"", "\"ltr\"", "\"up\"", "\"\""]))
                case "silent", "require_interaction", "mutable": g.maybeWrong(g.bool())
                case "app_badge": g.maybeWrong(g.either("3", ["0", "-0", "1.5", "9007199254740992", "-1", "1e2"]))
                case "urgency": g.maybeWrong(g.either("\"low\"", ["\"very-low\"", "\"high\"", "\"urgent\""]))
                case "topic":
                    g.maybeWrong(
                        g.either(
                            "\"t-1_AB\"",
                            ["\"a b\"", "\"" + String(repeating: "t", count: 33) + "\"", "\"t-1_A\"", "\"spike\""]))
                case "colour": "\"red\""
                default: g.maybeWrong(g.text())
                }
            })
    }

    /// A `live_activity` section (SPEC 5.1.1), for ``liveActivitySections``: valid ones give each event
    /// the keys it takes, the others also give keys to events that do not take them, wrong types and
    /// out-of-range seconds.
    mutating func liveActivity() -> String {
        let event = valid ? pick(["start", "update", "end"]) : pick(["start", "update", "end", "END", "pause", ""])
        let startOnly = ["attributes_type", "attributes", "input_push_token", "input_push_channel"]
        var names = ["timestamp", "stale_date", "relevance_score"]
        switch event {
        case "start": names += startOnly + ["content_state"]
        case "update": names += ["content_state", "channel_id"]
        default: names += ["dismissal_date", "channel_id"] + (chance(30) ? ["content_state"] : [])
        }
        if !valid { names += [pick(startOnly + ["dismissal_date", "channel_id", "colour"])] }
        var members: [(String, String)] = []
        if valid || chance(90) { members.append(("event", maybeWrong("\"" + event + "\""))) }
        let required: Set = ["content_state", "attributes_type", "attributes"]
        for name in names where (valid && required.contains(name)) || chance(valid ? 50 : 60) {
            members.append((name, maybeWrong(liveActivityValue(name))))
        }
        shuffle(&members)
        return object(members)
    }

    /// A value of the `live_activity` key `name`.
    private mutating func liveActivityValue(_ name: String) -> String {
        switch name {
        case "timestamp", "stale_date", "dismissal_date":
            either("1700000000", ["0", "1700000000", "253402300799", "253402300800", "-1", "1.5", "1e3"])
        case "relevance_score": either("0.5", ["0", "100", "0.5", "-2.25", "1e2"])
        case "input_push_token": bool()
        case "content_state", "attributes":
            valid || chance(50) ? appState() : chance(70) ? data() : "{\"s\":[1,{\"t\":null}]}"
        default: text()
        }
    }

    /// An app's own Live Activity type as JSON (`content_state`, `attributes`): no `null` anywhere, which
    /// APNs refuses.
    private mutating func appState(depth: Int = 0) -> String {
        var members: [(String, String)] = []
        for index in 0..<below(depth > 0 ? 3 : 5) {
            let value: String
            switch below(depth > 1 ? 3 : 5) {
            case 0: value = text()
            case 1: value = number()
            case 2: value = bool()
            case 3: value = "[" + text() + "," + number() + "]"
            default: value = appState(depth: depth + 1)
            }
            members.append((pick(["progress", "eta", "driver", "score", "status"]) + "\(index)", value))
        }
        return object(members)
    }

    mutating func targets() -> String {
        let names = ["apns", "adobe-carousel", "fb-card", "android-expandable", "fcm", "APNS", "apns"]
        var elements: [String] = []
        for _ in 0..<below(6) { elements.append(chance(95) ? "\"" + pick(names) + "\"" : "1") }
        return "[" + elements.joined(separator: ",") + "]"
    }

    mutating func message() -> String {
        var members = some(["title", "subtitle", "priority", "ttl", "colour"], percent: 55) { g, name in
            switch name {
            case "priority":
                g.maybeWrong(g.either("\"high\"", ["\"normal\"", "\"high\"", "\"urgent\"", "\"h\\u0069gh\""]))
            case "ttl": g.maybeWrong(g.either("60", ["0", "60", "2419200", "2419201", "-1", "1.5", "1e3"]))
            case "colour": "\"red\""
            default: g.maybeWrong(g.text())
            }
        }
        if valid ? chance(95) : chance(55) { members.append(("body", maybeWrong(text()))) }
        shuffle(&members)
        return object(members)
    }

    mutating func data() -> String {
        let names = [
            "order_id", "amount", "deep_link", "aps", "adb_x", "alert", "fb_push_card", "fb_push_payload",
            "notification-action", "category-actions", "n", "o", "\\u0061ps", "adb\\u005fy",
        ]
        var members: [(String, String)] = []
        for _ in 0..<below(5) {
            members.append((valid && chance(90) ? pick(Array(names.prefix(3)) + ["n", "o"]) : pick(names), anyValue()))
        }
        return object(members)
    }

    mutating func custom() -> String {
        var members: [(String, String)] = []
        let strings = [
            "ios_sound", "ios_category", "ios_launch_image", "ios_title_loc_key", "ios_action_loc_key", "ios_loc_key",
            "android_channel_id", "android_click_action", "android_icon", "android_sound", "android_title_loc_key",
            "android_body_loc_key", "android_body_loc_key_action",
        ]
        let args = [
            "ios_title_loc_args", "ios_loc_args", "android_title_loc_args", "android_body_loc_args",
            "android_body_loc_key_args",
        ]
        for name in strings where chance(15) && !(valid && name == "android_body_loc_key_action") {
            members.append((name, maybeWrong(text())))
        }
        for name in args where chance(12) && !(valid && name == "android_body_loc_key_args") {
            members.append((name, maybeWrong(chance(30) ? text() : textArray())))
            // Valid payloads give the localization key that arguments need.
            if valid { members.append((Self.locKey(ofArgs: name), text())) }
        }
        if chance(30) { members.append(("ios_badge", maybeWrong(either("7", numbers())))) }
        if chance(15) { members.append(("ios_content_available", maybeWrong(bool()))) }
        if chance(15) { members.append(("ios_mutable_content", maybeWrong(bool()))) }
        if chance(10) { members.append(("android_led_color", maybeWrong(color()))) }
        if chance(5) { members.append(("ios_badges", "1")) }
        shuffle(&members)
        return object(members)
    }

    mutating func action(button: Bool) -> String {
        var members: [(String, String)] = []
        let types = ["\"url\"", "\"dial\"", "\"openApp\"", "\"rich\"", "\"custom\"", "\"\"", "\"u\\u0072l\"", "3"]
        let type = valid ? pick(Array(types.prefix(5)) + ["\"u\\u0072l\""]) : pick(types)
        if valid || chance(92) { members.append(("type", type)) }
        if (valid && button) || chance(button ? 90 : 40) { members.append(("name", maybeWrong(text()))) }
        if valid || chance(85) {
            let value: String
            switch type {
            case "\"url\"", "\"u\\u0072l\"": value = url()
            case "\"dial\"": value = either("\"+1 (555) 010-0100\"", ["\"+1 (555) 010-0100\"", "\"555-CALL\"", "12"])
            case "\"rich\"" where valid: value = text()
            default: value = anyValue()
            }
            members.append(("value", value))
        }
        for flag in ["destructive", "authentication", "foreground"] where chance(20) {
            members.append((flag, maybeWrong(bool())))
        }
        if chance(25) { members.append((pick(["extra", "payload", "x\\u0079"]), anyValue())) }
        shuffle(&members)
        return object(members)
    }

    mutating func actions() -> String {
        var elements: [String] = []
        for _ in 0..<(valid ? 1 + below(3) : below(5)) { elements.append(maybeWrong(action(button: true))) }
        return "[" + elements.joined(separator: ",") + "]"
    }

    mutating func expandable() -> String {
        let members = some(["type", "value", "extra"], percent: valid ? 100 : 70) { g, name in
            switch name {
            case "type": g.maybeWrong(g.either("\"image\"", ["\"text\"", "\"image\"", "\"video\""]))
            case "value": g.maybeWrong(g.valid || g.chance(50) ? g.url() : g.text())
            default: "1"
            }
        }
        return object(members)
    }
}

extension PayloadGenerator {
    mutating func textArray() -> String {
        var elements: [String] = []
        for _ in 0..<below(3) { elements.append(chance(90) ? text() : "2") }
        return "[" + elements.joined(separator: ",") + "]"
    }
}

extension PayloadGenerator {
    func numbers() -> [String] { Self.numbers }

    /// The `custom` localization key that the arguments `args` need.
    static func locKey(ofArgs args: String) -> String {
        args.hasPrefix("android_body") ? "android_body_loc_key" : String(args.dropLast("args".count)) + "key"
    }
}
