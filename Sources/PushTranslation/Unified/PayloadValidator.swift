import PushModel

/// The validate stage: checks every given field of the unified payload (SPEC section 3), routes it
/// (section 4) and builds the IR. Collects every error; never stops at the first. Reads the parsed
/// document in place: no value is copied out of the input but the few the IR normalizes (colors).
struct PayloadValidator {
    var context: ValidationContext
    /// The payload being validated.
    let document: JSONDocument
    var notification = PushNotification()
    /// The kinds of given fields that only some formats use, for `unused_field`.
    var givenUses = FieldUseSet()
    var platformIOS = true
    var platformAndroid = true
    /// `platform.web`: `false` unless given (SPEC 3, version 3).
    var platformWeb = false
    /// Whether `platform` was given with a wrong type or a member that is not a boolean: then there is
    /// no platform routing (SPEC 4), so no `ambiguous_template` or `no_target` joins its `wrong_type`.
    var platformInvalid = false
    /// The valid names of a given `targets`, `nil` when `targets` was absent.
    var targets: OutputFormatSet?
    var hasCarousel = false
    var hasCard = false
    /// Whether `live_activity` was given (not `null`), valid or not.
    var hasLiveActivity = false

    /// The formats `platform.android` routes to (`--android-formats`).
    let androidFormats: OutputFormatSet

    /// Inlined so that the large IR is built in the caller's frame, not built here and copied out.
    @inline(__always)
    init(
        document: JSONDocument, lenient: Bool,
        androidFormats: OutputFormatSet = TranslatorConfiguration.defaultAndroidFormats
    ) {
        self.document = document
        self.androidFormats = androidFormats
        context = ValidationContext(document: document, lenient: lenient)
    }

    /// The outcome: the IR when there are no errors, and the errors and payload warnings otherwise.
    struct Outcome {
        /// The normalized notification (meaningful only without errors); its `id` is set when valid.
        var notification: PushNotification
        /// Errors, sorted.
        var errors: [Diagnostic]
        /// Payload warnings (`unknown_field` with `--lenient`, `unused_field`), sorted.
        var warnings: [Diagnostic]
    }

    /// Validates a parsed payload whose top-level value (token 0) is an object.
    static func validate(_ document: JSONDocument, lenient: Bool, androidFormats: OutputFormatSet) -> Outcome {
        var validator = PayloadValidator(document: document, lenient: lenient, androidFormats: androidFormats)
        let (errors, warnings) = validator.run()
        return Outcome(notification: validator.notification, errors: errors, warnings: warnings)
    }

    /// Validates the payload, leaving the IR in ``notification`` (read it in place: it is large);
    /// the errors and payload warnings, sorted.
    mutating func run() -> (errors: [Diagnostic], warnings: [Diagnostic]) {
        readTopLevel(0)
        route()
        if context.errors.isEmpty { warnUnusedFields() }
        Self.sort(&context.errors)
        Self.sort(&context.warnings)
        return (context.errors, context.warnings)
    }

    /// Sorts `diagnostics` in place (`sorted()` would copy them into a new array). Most payloads have no
    /// diagnostic at all, and fewer than two are left as they are.
    private static func sort(_ diagnostics: inout [Diagnostic]) {
        if diagnostics.count > 1 { diagnostics.sort() }
    }

    private mutating func readTopLevel(_ root: Int) {
        let document = self.document
        for (name, key, value) in document.members(root, keyedBy: TopLevelKey.self) {
            if key != nil && document.isNull(value) { continue }
            // Known keys have fixed pointers; only an unknown key's pointer needs escaping.
            switch key {
            case .id: readID(value, "/id")
            case .platform: readPlatform(value, "/platform")
            case .targets: readTargets(value, "/targets")
            case .message: readMessage(value, "/message")
            case .data:
                if let object = context.object(value, "/data") { notification.data = InputValue(token: object) }
            case .custom: readCustom(value)
            case .dryRun:
                if let flag = context.bool(value, "/dry_run") { notification.dryRun = flag }
            case .collapse_id: readCollapseID(value, "/collapse_id")
            case .thread_id:
                givenUses.insert(.apnsDelivered)
                notification.ios.threadID = context.string(value, "/thread_id")
            case .action: readTapAction(value, "/action")
            case .actions: readButtons(value, "/actions")
            case .expandable: readExpandable(value, "/expandable")
            case .carousel: readCarousel(value, "/carousel")
            case .card: readCard(value, "/card")
            case .live_activity: readLiveActivity(value)
            case .web: readWeb(value, "/web")
            case nil: context.unknownField(JSONPointer.appending("", document.string(name)), in: "the payload")
            }
        }
    }

    private mutating func readID(_ token: Int, _ path: String) {
        let document = self.document
        guard let id = context.string(token, path) else { return }
        // A text has at most as many characters as raw bytes: only a longer one needs counting.
        if id.length > 128 {
            let length = document.characterCount(id)
            guard length <= 128 else {
                context.error(.outOfRange, path, "must be at most 128 characters, got \(length)")
                return
            }
        }
        notification.id = id
    }

    private mutating func readPlatform(_ token: Int, _ path: String) {
        let document = self.document
        guard let object = context.object(token, path) else {
            platformInvalid = true
            return
        }
        for (name, key, value) in document.members(object, keyedBy: PlatformKey.self) {
            guard let key else {
                context.unknownField(JSONPointer.appending(path, document.string(name)), in: "platform")
                continue
            }
            guard !document.isNull(value) else { continue }
            guard let flag = context.bool(value, JSONPointer.appending(path, key.rawValue)) else {
                platformInvalid = true
                continue
            }
            switch key {
            case .ios: platformIOS = flag
            case .android: platformAndroid = flag
            case .web: platformWeb = flag
            }
        }
    }

    private mutating func readTargets(_ token: Int, _ path: String) {
        let document = self.document
        guard let array = context.array(token, path) else {
            targets = OutputFormatSet()
            return
        }
        var names = OutputFormatSet()
        if document.count(array) == 0 {
            context.error(.invalidItemCount, path, "must list 1 to 6 formats; remove it to route by platform")
        }
        for (index, element) in document.elements(array).enumerated() {
            guard document.kind(element) == .string else {
                context.wrongType(JSONPointer.appending(path, index), expected: "a format name (string)", got: element)
                continue
            }
            let name = document.string(element)
            guard let format = OutputFormat(rawValue: name) else {
                let known = OutputFormat.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                context.error(.invalidValue, JSONPointer.appending(path, index), "unknown format; use one of \(known)")
                continue
            }
            guard !names.contains(format) else {
                context.error(.invalidValue, JSONPointer.appending(path, index), "format \"\(name)\" is listed twice")
                continue
            }
            names.insert(format)
        }
        targets = names
    }

    private mutating func readCollapseID(_ token: Int, _ path: String) {
        let document = self.document
        givenUses.insert(.deliveryOptions)
        guard let id = context.string(token, path) else { return }
        let bytes = document.utf8Count(id)
        guard bytes <= 64 else {
            context.error(.outOfRange, path, "must be at most 64 UTF-8 bytes (APNs' limit), got \(bytes)")
            return
        }
        notification.ios.collapseID = id
    }
}
