import PushModel

/// Writes the `adobe-carousel` format (SPEC 5.2): `aps` with Adobe's category and mutable-content,
/// the `adb_*` carousel keys, then `data`'s members.
struct AdobeCarouselEmitter: Emitter {
    let format = OutputFormat.adobeCarousel
    private static let reserved = ReservedKeys(names: ["aps"], prefix: "adb_")
    /// The template's guidance on text length, in characters.
    static let titleGuidance = 70
    static let bodyGuidance = 600

    func emit(
        _ notification: borrowing PushNotification, document: JSONDocument, shared: SharedParts,
        into writer: inout JSONWriter
    ) -> Emission {
        var errors = Self.reserved.check(notification.data, shared, document, format: format)
        if notification.message.title == nil {
            errors.append(Diagnostic(.missingField, at: "/message/title", "adobe-carousel needs message.title"))
        }
        if notification.message.body == nil {
            errors.append(Diagnostic(.missingField, at: "/message/body", "adobe-carousel needs message.body"))
        }
        guard errors.isEmpty, let carousel = notification.carousel else {
            return Emission(failed: errors)
        }
        let start = writer.beginOutput()
        writer.beginObject()
        APSWriter.write(notification, variant: .adobe, document, into: &writer)
        writer.key("adb_version")
        writer.literal("1.0")
        writer.key("adb_template_type")
        writer.literal("car")
        writer.member("adb_title_ex", carousel.expandedTitle, document)
        writer.member("adb_body_ex", carousel.expandedBody, document)
        if let uri = carousel.uri {
            writer.member("adb_uri", uri, document)
        } else if let value = urlActionValue(notification.action) {
            writer.key("adb_uri")
            writer.value(value.token, document)
        }
        writer.key("adb_car_mode")
        writer.string(carousel.mode.rawValue)
        writer.key("adb_car_layout")
        writer.string(carousel.layout.rawValue)
        writer.key("adb_items")
        writer.beginArray()
        for item in carousel.items {
            writer.beginObject()
            writer.key("img")
            writer.string(item.image, document)
            writer.member("txt", item.text, document)
            writer.member("uri", item.uri, document)
            writer.endObject()
        }
        writer.endArray()
        APSWriter.writeOptional("adb_clr_title", carousel.titleColor, &writer)
        APSWriter.writeOptional("adb_clr_body", carousel.bodyColor, &writer)
        APSWriter.writeOptional("adb_clr_bg", carousel.backgroundColor, &writer)
        let parts = SharedParts.Ranges(data: writer.data(notification.data, document, shared.written.data))
        writer.endObject()
        return PayloadLimit.emission(
            writer, from: start, format: format, parts: parts, warnings: warnings(notification, document))
    }

    /// The value of a `url` tap action (validated as a string).
    private func urlActionValue(_ action: NotificationAction?) -> InputValue? {
        guard let action, action.kind == .url else { return nil }
        return action.value
    }

    private func warnings(_ notification: PushNotification, _ document: JSONDocument) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        if notification.ios.category != nil {
            warnings.append(
                Diagnostic(
                    .overriddenField, at: "/custom/ios_category",
                    "adobe-carousel always sends category AEPNotification; this category is not used"))
        }
        // A text has at most as many characters as raw bytes: only a longer one needs counting.
        if let title = notification.message.title, title.length > Self.titleGuidance,
            case let title = document.characterCount(title), title > Self.titleGuidance
        {
            warnings.append(
                Diagnostic(
                    .textTooLong, at: "/message/title",
                    "\(title) characters; Adobe's carousel guidance is at most \(Self.titleGuidance), longer titles may be cut"
                ))
        }
        if let body = notification.message.body, body.length > Self.bodyGuidance,
            case let body = document.characterCount(body), body > Self.bodyGuidance
        {
            warnings.append(
                Diagnostic(
                    .textTooLong, at: "/message/body",
                    "\(body) characters; Adobe's carousel guidance is at most \(Self.bodyGuidance), longer bodies may be cut"
                ))
        }
        return warnings.sorted()
    }
}
