import PushModel

/// Writes the `apns` format (SPEC 5.1): `aps`, the Acoustic `notification-action` and `category-actions`,
/// then `data`'s members.
struct APNsEmitter: Emitter {
    let format = OutputFormat.apns
    private static let reserved = ReservedKeys(names: ["aps", "notification-action", "category-actions"], prefix: nil)

    func emit(_ notification: borrowing PushNotification, document: JSONDocument, data written: WrittenData) -> Emission
    {
        var errors = Self.reserved.check(notification.data, nameLengths: written.nameLengths, document, format: format)
        if let empty = APSWriter.checkNotEmpty(notification) { errors.append(empty) }
        guard errors.isEmpty else { return Emission(value: [], errors: errors, warnings: []) }
        return JSONWriter.withScratch { writer in
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
            let dataRange = writer.data(notification.data, document, written)
            writer.endObject()
            return PayloadLimit.emission(writer, format: format, dataRange: dataRange)
        }
    }
}
