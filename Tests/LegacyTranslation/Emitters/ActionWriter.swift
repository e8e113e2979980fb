import PushModel

/// Writes an action object in the Acoustic layout: `type`, `name`, `value`, `destructive`,
/// `authentication`, `foreground`, then its custom keys in input order.
enum ActionWriter {
    static func write(_ action: NotificationAction, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type")
        writer.string(action.type)
        if let name = action.name {
            writer.key("name")
            writer.string(name)
        }
        if let value = action.value {
            writer.key("value")
            writer.value(value)
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
        writer.members(action.customKeys)
        writer.endObject()
    }

    static func writeArray(_ actions: [NotificationAction], into writer: inout JSONWriter) {
        writer.beginArray()
        for action in actions { write(action, into: &writer) }
        writer.endArray()
    }
}
