import PushModel

/// The validate stage: checks every given field of the unified payload (SPEC section 3), routes it
/// (section 4) and builds the IR. Collects every error; never stops at the first.
struct PayloadValidator {
    var context: ValidationContext
    var notification = PushNotification()
    var givenFields: [GivenField] = []
    var platformIOS = true
    var platformAndroid = true
    /// The valid names of a given `targets`, `nil` when `targets` was absent.
    var targets: [OutputFormat]?
    var hasCarousel = false
    var hasCard = false

    init(lenient: Bool) { context = ValidationContext(lenient: lenient) }

    /// The outcome: the IR when there are no errors, and the errors and payload warnings otherwise.
    struct Outcome {
        /// The normalized notification (meaningful only without errors); its `id` is set when valid.
        var notification: PushNotification
        /// Errors, sorted.
        var errors: [Diagnostic]
        /// Payload warnings (`unknown_field` with `--lenient`, `unused_field`), sorted.
        var warnings: [Diagnostic]
    }

    /// Validates a parsed payload object.
    static func validate(_ root: JSONObject, lenient: Bool) -> Outcome {
        var validator = PayloadValidator(lenient: lenient)
        validator.readTopLevel(root)
        validator.route()
        if validator.context.errors.isEmpty { validator.warnUnusedFields() }
        return Outcome(
            notification: validator.notification,
            errors: validator.context.errors.sorted(),
            warnings: validator.context.warnings.sorted())
    }

    private mutating func readTopLevel(_ root: JSONObject) {
        for member in root.members {
            if case .null = member.value, Self.topLevelKeys.contains(member.name) { continue }
            let value = member.value
            // Known keys have fixed pointers; only an unknown key's pointer needs escaping.
            switch member.name {
            case "id": readID(value, "/id")
            case "platform": readPlatform(value, "/platform")
            case "targets": readTargets(value, "/targets")
            case "message": readMessage(value, "/message")
            case "data":
                if let object = context.object(value, "/data") { notification.data = object }
            case "custom": readCustom(value, "/custom")
            case "dry_run":
                if let flag = context.bool(value, "/dry_run") { notification.dryRun = flag }
            case "collapse_id": readCollapseID(value, "/collapse_id")
            case "thread_id":
                givenFields.append(GivenField(path: "/thread_id", use: .apnsDelivered))
                notification.ios.threadID = context.string(value, "/thread_id")
            case "action": readTapAction(value, "/action")
            case "actions": readButtons(value, "/actions")
            case "expandable": readExpandable(value, "/expandable")
            case "carousel": readCarousel(value, "/carousel")
            case "card": readCard(value, "/card")
            default: context.unknownField(JSONPointer.appending("", member.name), in: "the payload")
            }
        }
    }

    static let topLevelKeys: Set<String> = [
        "id", "platform", "targets", "message", "data", "custom", "dry_run", "collapse_id", "thread_id",
        "action", "actions", "expandable", "carousel", "card",
    ]

    private mutating func readID(_ value: JSONValue, _ path: String) {
        guard let id = context.string(value, path) else { return }
        let length = id.unicodeScalars.count
        guard length <= 128 else {
            context.error(.outOfRange, path, "must be at most 128 characters, got \(length)")
            return
        }
        notification.id = id
    }

    private mutating func readPlatform(_ value: JSONValue, _ path: String) {
        guard let object = context.object(value, path) else { return }
        for member in object.members {
            func memberPath() -> String { JSONPointer.appending(path, member.name) }
            switch member.name {
            case "ios":
                if member.value != .null, let flag = context.bool(member.value, memberPath()) { platformIOS = flag }
            case "android":
                if member.value != .null, let flag = context.bool(member.value, memberPath()) { platformAndroid = flag }
            default: context.unknownField(memberPath(), in: "platform")
            }
        }
    }

    private mutating func readTargets(_ value: JSONValue, _ path: String) {
        guard let elements = context.array(value, path) else {
            targets = []
            return
        }
        var names: [OutputFormat] = []
        if elements.isEmpty {
            context.error(.invalidItemCount, path, "must list 1 to 4 formats; remove it to route by platform")
        }
        let known = OutputFormat.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        for (index, element) in elements.enumerated() {
            let elementPath = JSONPointer.appending(path, index)
            guard case .string(let name) = element else {
                context.wrongType(elementPath, expected: "a format name (string)", got: element)
                continue
            }
            guard let format = OutputFormat(rawValue: name) else {
                context.error(.invalidValue, elementPath, "unknown format; use one of \(known)")
                continue
            }
            guard !names.contains(format) else {
                context.error(.invalidValue, elementPath, "format \"\(name)\" is listed twice")
                continue
            }
            names.append(format)
        }
        targets = names
    }

    private mutating func readCollapseID(_ value: JSONValue, _ path: String) {
        givenFields.append(GivenField(path: path, use: .apnsDelivered))
        guard let id = context.string(value, path) else { return }
        guard id.utf8.count <= 64 else {
            context.error(.outOfRange, path, "must be at most 64 UTF-8 bytes (APNs' limit), got \(id.utf8.count)")
            return
        }
        notification.ios.collapseID = id
    }
}
