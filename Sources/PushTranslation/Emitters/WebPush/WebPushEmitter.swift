import PushModel

/// Writes the `webpush` format (SPEC 5.6): a declarative web push message (W3C Push API), which the
/// browser shows without running a service worker. `{"web_push":8030,"notification":{..}}`, then
/// `app_badge` and `mutable` at the top level, as the W3C draft and WebKit read them.
struct WebPushEmitter: Emitter {
    let format = OutputFormat.webpush

    /// The largest value: a push service need only take a 4096-byte encrypted body, and RFC 8291's
    /// encoding (86-byte header, 16-byte tag, 1 padding delimiter byte) leaves 3993 bytes of plaintext.
    static let limit = 3993

    func emit(
        _ notification: borrowing PushNotification, document: JSONDocument, shared: SharedParts,
        into writer: inout JSONWriter
    ) -> Emission {
        let web = notification.web
        let navigate = web?.navigate ?? Self.httpValue(of: notification.action, document)
        var errors: [Diagnostic] = []
        if notification.message.title == nil {
            errors.append(
                Diagnostic(
                    .missingField, at: "/message/title",
                    "webpush needs message.title: a declarative web push message without a title is not shown"))
        }
        if navigate == nil {
            errors.append(
                Diagnostic(
                    .missingField, at: "/web/navigate",
                    "webpush needs the page a click opens: give web.navigate, or an action of type url with an "
                        + "http or https value"))
        }
        guard errors.isEmpty, let title = notification.message.title, let navigate else {
            return Emission(failed: errors)
        }
        let start = writer.beginOutput()
        writer.beginObject()
        writer.key("web_push")
        writer.integer(8030)
        writer.key("notification")
        writer.beginObject()
        writer.key("title")
        writer.string(title, document)
        writer.member("lang", web?.lang, document)
        if let dir = web?.dir {
            writer.key("dir")
            writer.literal(Self.literal(dir))
        }
        writer.member("body", notification.message.body, document)
        writer.key("navigate")
        writer.string(navigate, document)
        writer.member("icon", web?.icon, document)
        writer.member("tag", notification.ios.collapseID, document)
        if web?.silent == true {
            writer.key("silent")
            writer.bool(true)
        }
        if web?.requireInteraction == true {
            writer.key("requireInteraction")
            writer.bool(true)
        }
        var parts = SharedParts.Ranges()
        if let data = notification.data, document.count(data.token) > 0 {
            writer.key("data")
            writer.beginObject()
            parts.data = writer.data(data, document, shared.written.data)
            writer.endObject()
        }
        let warnings = writeActions(notification.actions, document, &writer)
        writer.endObject()
        if let badge = web?.appBadge {
            writer.key("app_badge")
            writer.number(badge)
        }
        if web?.mutable == true {
            writer.key("mutable")
            writer.bool(true)
        }
        writer.endObject()
        return PayloadLimit.emission(
            writer, from: start, format: format, limit: Self.limit, parts: parts, warnings: warnings)
    }

    /// Writes `actions` from the buttons of type `url` with an `http` or `https` value; the
    /// `unsupported_action` warnings of the others (a browser's button only opens a page).
    private func writeActions(_ actions: ActionList?, _ document: JSONDocument, _ writer: inout JSONWriter)
        -> [Diagnostic]
    {
        guard let actions else { return [] }
        var warnings: [Diagnostic] = []
        var opened = false
        for (index, action) in actions.enumerated() {
            guard let url = Self.httpValue(of: action, document), let name = action.name else {
                warnings.append(
                    Diagnostic(
                        .unsupportedAction, at: JSONPointer.appending("/actions", index),
                        "left out of webpush: a browser's button only opens a web page (type url with an http or "
                            + "https value)"))
                continue
            }
            if !opened {
                writer.key("actions")
                writer.beginArray()
                opened = true
            }
            writer.beginObject()
            writer.key("action")
            writer.string(name, document)
            writer.key("title")
            writer.string(name, document)
            writer.key("navigate")
            writer.string(url, document)
            writer.endObject()
        }
        if opened { writer.endArray() }
        return warnings
    }

    /// The value of an action of type `url` when it is an absolute `http` or `https` URL with a host.
    static func httpValue(of action: NotificationAction?, _ document: JSONDocument) -> InputText? {
        guard let action, action.kind == .url, let value = action.value, document.kind(value.token) == .string
        else { return nil }
        let text = document.text(value.token)
        return document.withDecodedBytes(text, URLRules.isImageURL(bytes:)) ? text : nil
    }

    private static func literal(_ dir: WebOptions.Direction) -> StaticString {
        switch dir {
        case .auto: "auto"
        case .ltr: "ltr"
        case .rtl: "rtl"
        }
    }
}
