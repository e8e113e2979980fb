import PushModel

/// Writes the `adobe-carousel` format (SPEC 5.2): `aps` with Adobe's category and mutable-content,
/// the `adb_*` carousel keys, then `data`'s members.
struct AdobeCarouselEmitter: Emitter {
    let format = OutputFormat.adobeCarousel
    private static let reserved = ReservedKeys(names: ["aps"], prefix: "adb_")
    /// The template's guidance on text length, in characters.
    static let titleGuidance = 70
    static let bodyGuidance = 600

    func emit(_ notification: PushNotification) -> Emission {
        var errors = Self.reserved.check(notification.data, format: format)
        if notification.message.title == nil {
            errors.append(Diagnostic(.missingField, at: "/message/title", "adobe-carousel needs message.title"))
        }
        if notification.message.body == nil {
            errors.append(Diagnostic(.missingField, at: "/message/body", "adobe-carousel needs message.body"))
        }
        guard errors.isEmpty, let carousel = notification.carousel else {
            return Emission(value: [], errors: errors, warnings: [])
        }
        var writer = JSONWriter(capacity: 1024)
        writer.beginObject()
        APSWriter.write(notification, variant: .adobe, into: &writer)
        writer.key("adb_version")
        writer.string("1.0")
        writer.key("adb_template_type")
        writer.string("car")
        APSWriter.writeOptional("adb_title_ex", carousel.expandedTitle, &writer)
        APSWriter.writeOptional("adb_body_ex", carousel.expandedBody, &writer)
        APSWriter.writeOptional("adb_uri", carousel.uri ?? urlActionValue(notification.action), &writer)
        writer.key("adb_car_mode")
        writer.string(carousel.mode.rawValue)
        writer.key("adb_car_layout")
        writer.string(carousel.layout.rawValue)
        writer.key("adb_items")
        writer.beginArray()
        for item in carousel.items {
            writer.beginObject()
            writer.key("img")
            writer.string(item.image)
            APSWriter.writeOptional("txt", item.text, &writer)
            APSWriter.writeOptional("uri", item.uri, &writer)
            writer.endObject()
        }
        writer.endArray()
        APSWriter.writeOptional("adb_clr_title", carousel.titleColor, &writer)
        APSWriter.writeOptional("adb_clr_body", carousel.bodyColor, &writer)
        APSWriter.writeOptional("adb_clr_bg", carousel.backgroundColor, &writer)
        writer.members(notification.data.members)
        writer.endObject()
        if let tooLarge = PayloadLimit.check(writer.bytes, format: format) {
            return Emission(value: [], errors: [tooLarge], warnings: [])
        }
        return Emission(value: writer.bytes, errors: [], warnings: warnings(notification))
    }

    private func urlActionValue(_ action: NotificationAction?) -> String? {
        guard let action, action.type == "url", case .string(let url) = action.value else { return nil }
        return url
    }

    private func warnings(_ notification: PushNotification) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        if notification.ios.category != nil {
            warnings.append(
                Diagnostic(
                    .overriddenField, at: "/custom/ios_category",
                    "adobe-carousel always sends category AEPNotification; this category is not used"))
        }
        if let title = notification.message.title, title.unicodeScalars.count > Self.titleGuidance {
            warnings.append(
                Diagnostic(
                    .textTooLong, at: "/message/title",
                    "\(title.unicodeScalars.count) characters; Adobe's carousel guidance is at most \(Self.titleGuidance), longer titles may be cut"))
        }
        if let body = notification.message.body, body.unicodeScalars.count > Self.bodyGuidance {
            warnings.append(
                Diagnostic(
                    .textTooLong, at: "/message/body",
                    "\(body.unicodeScalars.count) characters; Adobe's carousel guidance is at most \(Self.bodyGuidance), longer bodies may be cut"))
        }
        return warnings.sorted()
    }
}
