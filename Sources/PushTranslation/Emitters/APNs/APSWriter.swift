import PushModel

/// Writes the `aps` dictionary shared by the formats delivered through APNs (SPEC 5.1, 5.2, 5.3).
enum APSWriter {
    /// How a format changes `aps`.
    struct Variant {
        /// Adobe: `alert` always an object.
        var alwaysAlertObject = false
        /// Adobe: `category` always this value.
        var fixedCategory: StaticString? = nil
        /// Adobe: `mutable-content` always 1.
        var alwaysMutableContent = false

        static let standard = Variant()
        static let adobe = Variant(
            alwaysAlertObject: true, fixedCategory: "AEPNotification", alwaysMutableContent: true)
    }

    /// Whether the alert has any content.
    static func hasAlert(_ notification: PushNotification) -> Bool {
        let message = notification.message
        let ios = notification.ios
        return message.title != nil || message.subtitle != nil || message.body != nil || ios.launchImage != nil
            || ios.titleLocKey != nil || ios.titleLocArgs != nil || ios.actionLocKey != nil || ios.locKey != nil
            || ios.locArgs != nil
    }

    /// Whether nothing visible or audible is delivered: no alert, badge or sound.
    static func isBackground(_ notification: PushNotification) -> Bool {
        !hasAlert(notification) && notification.ios.badge == nil && notification.ios.sound == nil
    }

    /// Writes `"aps":{...}` as the next member.
    static func write(
        _ notification: PushNotification, variant: Variant, _ document: JSONDocument, into writer: inout JSONWriter
    ) {
        let message = notification.message
        let ios = notification.ios
        writer.key("aps")
        writer.beginObject()
        let alertIsBodyOnly =
            message.body != nil && message.title == nil && message.subtitle == nil
            && ios.launchImage == nil && ios.titleLocKey == nil && ios.titleLocArgs == nil
            && ios.actionLocKey == nil && ios.locKey == nil && ios.locArgs == nil
        if alertIsBodyOnly && !variant.alwaysAlertObject, let body = message.body {
            writer.key("alert")
            writer.string(body, document)
        } else if hasAlert(notification) {
            writer.key("alert")
            writer.beginObject()
            writer.member("title", message.title, document)
            writer.member("subtitle", message.subtitle, document)
            writer.member("body", message.body, document)
            writer.member("launch-image", ios.launchImage, document)
            writer.member("title-loc-key", ios.titleLocKey, document)
            if let args = ios.titleLocArgs {
                writer.key("title-loc-args")
                writer.locArgs(args, document)
            }
            writer.member("action-loc-key", ios.actionLocKey, document)
            writer.member("loc-key", ios.locKey, document)
            if let args = ios.locArgs {
                writer.key("loc-args")
                writer.locArgs(args, document)
            }
            writer.endObject()
        }
        if let badge = ios.badge {
            writer.key("badge")
            writer.value(badge.token, document)
        }
        writer.member("sound", ios.sound, document)
        writer.member("thread-id", ios.threadID, document)
        if let category = variant.fixedCategory {
            writer.key("category")
            writer.literal(category)
        } else {
            writer.member("category", ios.category, document)
        }
        if ios.contentAvailable {
            writer.key("content-available")
            writer.integer(1)
        }
        if ios.mutableContent || variant.alwaysMutableContent {
            writer.key("mutable-content")
            writer.integer(1)
        }
        writer.endObject()
    }

    /// Writes a normalized value (a color, an enumeration's name), when given, as the member `key`.
    static func writeOptional(_ key: StaticString, _ value: String?, _ writer: inout JSONWriter) {
        guard let value else { return }
        writer.key(key)
        writer.string(value)
    }

    /// `empty_notification` when there is no alert, badge, sound or content-available.
    static func checkNotEmpty(_ notification: PushNotification) -> Diagnostic? {
        guard isBackground(notification) && !notification.ios.contentAvailable else { return nil }
        return Diagnostic(
            .emptyNotification, at: "",
            "nothing to deliver: give message.title or message.body, custom.ios_badge, custom.ios_sound or custom.ios_content_available"
        )
    }
}
