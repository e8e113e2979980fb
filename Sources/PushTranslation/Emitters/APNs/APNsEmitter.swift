import PushModel

/// Writes the `apns` format (SPEC 5.1): `aps`, the Acoustic `notification-action` and `category-actions`,
/// then `data`'s members.
struct APNsEmitter: Emitter {
    let format = OutputFormat.apns
    private static let reserved = ReservedKeys(names: ["aps", "notification-action", "category-actions"], prefix: nil)

    func emit(
        _ notification: borrowing PushNotification, document: JSONDocument, shared: SharedParts,
        into writer: inout JSONWriter
    ) -> Emission {
        var errors = Self.reserved.check(notification.data, shared, document, format: format)
        if let empty = APSWriter.checkNotEmpty(notification) { errors.append(empty) }
        guard errors.isEmpty else { return Emission(value: [], errors: errors, warnings: []) }
        let start = writer.beginOutput()
        writer.beginObject()
        APSWriter.write(notification, variant: .standard, document, into: &writer)
        var parts = SharedParts.Ranges()
        if let action = notification.action {
            writer.key("notification-action")
            parts.action = writer.sharedValue(shared.written.action) { ActionWriter.write(action, document, into: &$0) }
        }
        if let actions = notification.actions {
            writer.key("category-actions")
            parts.actions = writer.sharedValue(shared.written.actions) {
                ActionWriter.writeArray(actions, document, into: &$0)
            }
        }
        parts.data = writer.data(notification.data, document, shared.written.data)
        writer.endObject()
        return PayloadLimit.emission(writer, from: start, format: format, parts: parts)
    }
}
