import PushModel

/// Writes the `android-expandable` format (SPEC 5.4): Acoustic's Android `alert` object, then `data`'s members.
struct AndroidExpandableEmitter: Emitter {
    let format = OutputFormat.androidExpandable
    private static let reserved = ReservedKeys(names: ["alert"], prefix: nil)

    func emit(_ notification: PushNotification) -> Emission {
        var errors = Self.reserved.check(notification.data, format: format)
        if notification.message.body == nil {
            errors.append(
                Diagnostic(.missingField, at: "/message/body", "android-expandable needs message.body, the notification text"))
        }
        guard errors.isEmpty, let body = notification.message.body else {
            return Emission(value: [], errors: errors, warnings: [])
        }
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.key("alert")
        writer.beginObject()
        if let title = notification.message.title {
            writer.key("subject")
            writer.string(title)
        }
        writer.key("message")
        writer.string(body)
        if let action = notification.action {
            writer.key("notification-action")
            ActionWriter.write(action, into: &writer)
        }
        if notification.expandable != nil || notification.actions != nil {
            let expandable = notification.expandable ?? Expandable(kind: .text, value: body)
            writer.key("expandable")
            writer.beginObject()
            writer.key("type")
            writer.string(expandable.kind.rawValue)
            writer.key("value")
            writer.string(expandable.value)
            if let actions = notification.actions {
                writer.key("expandable-actions")
                ActionWriter.writeArray(actions, into: &writer)
            }
            writer.endObject()
        }
        writer.endObject()
        writer.members(notification.data.members)
        writer.endObject()
        if let tooLarge = PayloadLimit.check(writer.bytes, format: format) {
            return Emission(value: [], errors: [tooLarge], warnings: [])
        }
        return Emission(value: writer.bytes, errors: [], warnings: [])
    }
}
