import PushModel

/// Writes the `android-expandable` format (SPEC 5.4): Acoustic's Android `alert` object, then `data`'s members.
struct AndroidExpandableEmitter: Emitter {
    let format = OutputFormat.androidExpandable
    private static let reserved = ReservedKeys(names: ["alert"], prefix: nil)

    func emit(
        _ notification: borrowing PushNotification, document: JSONDocument, shared: SharedParts,
        into writer: inout JSONWriter
    ) -> Emission {
        var errors = Self.reserved.check(notification.data, shared, document, format: format)
        if notification.message.body == nil {
            errors.append(
                Diagnostic(
                    .missingField, at: "/message/body", "android-expandable needs message.body, the notification text"))
        }
        guard errors.isEmpty, let body = notification.message.body else {
            return Emission(failed: errors)
        }
        let start = writer.beginOutput()
        writer.beginObject()
        writer.key("alert")
        writer.beginObject()
        writer.member("subject", notification.message.title, document)
        writer.key("message")
        writer.string(body, document)
        var parts = SharedParts.Ranges()
        if let action = notification.action {
            writer.key("notification-action")
            parts.action = writer.sharedValue(shared.written.action) { ActionWriter.write(action, document, into: &$0) }
        }
        if notification.expandable != nil || notification.actions != nil {
            let expandable = notification.expandable ?? Expandable(kind: .text, value: body)
            writer.key("expandable")
            writer.beginObject()
            writer.key("type")
            // The kind's name (its raw value) as a literal: no string to copy and scan for escapes.
            switch expandable.kind {
            case .text: writer.literal("text")
            case .image: writer.literal("image")
            }
            writer.key("value")
            writer.string(expandable.value, document)
            if let actions = notification.actions {
                writer.key("expandable-actions")
                parts.actions = writer.sharedValue(shared.written.actions) {
                    ActionWriter.writeArray(actions, document, into: &$0)
                }
            }
            writer.endObject()
        }
        writer.endObject()
        parts.data = writer.data(notification.data, document, shared.written.data)
        writer.endObject()
        return PayloadLimit.emission(writer, from: start, format: format, parts: parts)
    }
}
