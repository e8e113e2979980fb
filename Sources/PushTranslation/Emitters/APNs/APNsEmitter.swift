import PushModel

/// Writes the `apns` format (SPEC 5.1): `aps`, the Acoustic `notification-action` and `category-actions`,
/// then `data`'s members; or a Live Activity push when the payload has `live_activity` (SPEC 5.1.1).
struct APNsEmitter: Emitter {
    let format = OutputFormat.apns
    /// The input record's time in ms since the epoch (its timestamp, else when it was read): a Live
    /// Activity's default `timestamp`, in whole seconds.
    var recordTimestampMs: Int64 = 0
    private static let reserved = ReservedKeys(names: ["aps", "notification-action", "category-actions"], prefix: nil)

    func emit(
        _ notification: borrowing PushNotification, document: JSONDocument, shared: SharedParts,
        into writer: inout JSONWriter
    ) -> Emission {
        if let activity = notification.liveActivity {
            return LiveActivityWriter.emit(
                activity, notification, document: document, shared: shared,
                recordSeconds: RecordBuilder.seconds(ofMilliseconds: recordTimestampMs), into: &writer)
        }
        var errors = Self.reserved.check(notification.data, shared, document, format: format)
        if let empty = APSWriter.checkNotEmpty(notification) { errors.append(empty) }
        guard errors.isEmpty else { return Emission(failed: errors) }
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
