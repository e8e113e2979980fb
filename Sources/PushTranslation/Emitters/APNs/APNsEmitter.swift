import PushModel

/// Writes the `apns` format (SPEC 5.1): `aps`, the Acoustic `notification-action` and `category-actions`,
/// then `data`'s members.
struct APNsEmitter: Emitter {
    let format = OutputFormat.apns
    private static let reserved = ReservedKeys(names: ["aps", "notification-action", "category-actions"], prefix: nil)

    func emit(_ notification: borrowing PushNotification, document: JSONDocument, shared: SharedParts) -> Emission {
        var errors = Self.reserved.check(
            notification.data, nameLengths: shared.dataNameLengths, document, format: format)
        if let empty = APSWriter.checkNotEmpty(notification) { errors.append(empty) }
        guard errors.isEmpty else { return Emission(value: [], errors: errors, warnings: []) }
        return JSONWriter.withScratch { writer in
            writer.beginObject()
            APSWriter.write(notification, variant: .standard, document, into: &writer)
            var parts = SharedParts.Ranges()
            if let action = notification.action {
                writer.key("notification-action")
                parts.action = writer.sharedValue(shared.action) { ActionWriter.write(action, document, into: &$0) }
            }
            if let actions = notification.actions {
                writer.key("category-actions")
                parts.actions = writer.sharedValue(shared.actions) {
                    ActionWriter.writeArray(actions, document, into: &$0)
                }
            }
            parts.data = writer.data(notification.data, document, shared.data)
            writer.endObject()
            return PayloadLimit.emission(writer, format: format, parts: parts)
        }
    }
}
