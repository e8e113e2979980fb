import PushModel

/// Writes the `apns` output of a payload with `live_activity`: an ActivityKit Live Activity push
/// (SPEC 5.1.1). `aps` holds only the Live Activity's keys (no badge, category or other notification key),
/// then come `data`'s members.
enum LiveActivityWriter {
    /// Only `aps` is reserved in `data` (the Acoustic action keys are not written).
    private static let reserved = ReservedKeys(names: ["aps"], prefix: nil)

    /// The Live Activity push, or its emit-stage errors: `reserved_key`, a `start` without its alert's
    /// title or body (`missing_field`), `payload_too_large`.
    static func emit(
        _ activity: LiveActivity, _ notification: borrowing PushNotification, document: JSONDocument,
        shared: SharedParts, recordSeconds: Int64, into writer: inout JSONWriter
    ) -> Emission {
        var errors = reserved.check(notification.data, shared, document, format: .apns)
        if activity.event == .start {
            if notification.message.title == nil {
                errors.append(
                    Diagnostic(
                        .missingField, at: "/message/title",
                        "a Live Activity start shows an alert: give message.title (and message.body)"))
            }
            if notification.message.body == nil {
                errors.append(
                    Diagnostic(
                        .missingField, at: "/message/body",
                        "a Live Activity start shows an alert: give message.body (and message.title)"))
            }
        }
        guard errors.isEmpty else { return Emission(failed: errors) }
        let start = writer.beginOutput()
        writer.beginObject()
        writeAPS(activity, notification, document, recordSeconds: recordSeconds, into: &writer)
        var parts = SharedParts.Ranges()
        parts.data = writer.data(notification.data, document, shared.written.data)
        writer.endObject()
        return PayloadLimit.emission(writer, from: start, format: .apns, parts: parts)
    }

    /// Writes `"aps":{...}` as the next member, its keys in SPEC 5.1.1 order.
    private static func writeAPS(
        _ activity: LiveActivity, _ notification: borrowing PushNotification, _ document: JSONDocument,
        recordSeconds: Int64, into writer: inout JSONWriter
    ) {
        let members = LiveActivityMembers(activity, document)
        writer.key("aps")
        writer.beginObject()
        writer.key("timestamp")
        if let timestamp = members.timestamp {
            writer.value(timestamp, document)
        } else {
            writer.integer(recordSeconds)
        }
        writer.key("event")
        switch activity.event {
        case .start: writer.literal("start")
        case .update: writer.literal("update")
        case .end: writer.literal("end")
        }
        writeValue("content-state", members.contentState, document, into: &writer)
        writeValue("stale-date", members.staleDate, document, into: &writer)
        writeValue("dismissal-date", members.dismissalDate, document, into: &writer)
        writeValue("relevance-score", members.relevanceScore, document, into: &writer)
        writeValue("attributes-type", members.attributesType, document, into: &writer)
        writeValue("attributes", members.attributes, document, into: &writer)
        if members.inputPushToken {
            writer.key("input-push-token")
            writer.integer(1)
        }
        writeValue("input-push-channel", members.inputPushChannel, document, into: &writer)
        let message = notification.message
        if message.title != nil || message.body != nil {
            writer.key("alert")
            writer.beginObject()
            writer.member("title", message.title, document)
            writer.member("body", message.body, document)
            writer.member("sound", notification.ios.sound, document)
            writer.endObject()
        }
        writer.endObject()
    }

    /// Writes a value of the input (a string, number or object, as the input wrote it), when given, as the
    /// member `key`.
    private static func writeValue(
        _ key: StaticString, _ token: Int?, _ document: JSONDocument, into writer: inout JSONWriter
    ) {
        guard let token else { return }
        writer.key(key)
        writer.value(token, document)
    }
}
