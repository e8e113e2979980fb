import PushModel

/// Writes the `apns` format (SPEC 5.1): `aps`, the Acoustic `notification-action` and `category-actions`,
/// then `data`'s members.
struct APNsEmitter: Emitter {
    let format = OutputFormat.apns
    private static let reserved = ReservedKeys(names: ["aps", "notification-action", "category-actions"], prefix: nil)

    func emit(_ notification: PushNotification, document: JSONDocument) -> Emission {
        var errors = Self.reserved.check(notification.data, document, format: format)
        if let empty = APSWriter.checkNotEmpty(notification) { errors.append(empty) }
        guard errors.isEmpty else { return Emission(value: [], errors: errors, warnings: []) }
        var writer = JSONWriter(capacity: document.bytes.count + 256)
        writer.beginObject()
        APSWriter.write(notification, variant: .standard, document, into: &writer)
        if let action = notification.action {
            writer.key("notification-action")
            ActionWriter.write(action, document, into: &writer)
        }
        if let actions = notification.actions {
            writer.key("category-actions")
            ActionWriter.writeArray(actions, document, into: &writer)
        }
        writer.data(notification.data, document)
        writer.endObject()
        if let tooLarge = PayloadLimit.check(writer.bytes, format: format) {
            return Emission(value: [], errors: [tooLarge], warnings: [])
        }
        return Emission(value: writer.bytes, errors: [], warnings: [])
    }
}
