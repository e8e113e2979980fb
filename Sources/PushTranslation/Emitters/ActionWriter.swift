import PushModel

/// Writes an action object in the Acoustic layout: `type`, `name`, `value`, `destructive`,
/// `authentication`, `foreground`, then its custom keys in input order.
enum ActionWriter {
    static func write(_ action: NotificationAction, _ document: JSONDocument, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type")
        writer.string(action.type, document)
        writer.member("name", action.name, document)
        if let value = action.value {
            writer.key("value")
            writer.value(value.token, document)
        }
        if let flag = action.destructive {
            writer.key("destructive")
            writer.bool(flag)
        }
        if let flag = action.authentication {
            writer.key("authentication")
            writer.bool(flag)
        }
        if let flag = action.foreground {
            writer.key("foreground")
            writer.bool(flag)
        }
        if action.hasCustomMembers {
            writer.members(of: action.object.token, document) { name in document.key(name, as: ActionKey.self) != nil }
        }
        writer.endObject()
    }

    static func writeArray(_ actions: ActionList, _ document: JSONDocument, into writer: inout JSONWriter) {
        writer.beginArray()
        for action in actions { write(action, document, into: &writer) }
        writer.endArray()
    }
}
