import PushModel

extension PayloadValidator {
    mutating func readMessage(_ value: JSONValue, _ path: String) {
        guard let object = context.object(value, path) else { return }
        for member in object.members where member.value != .null {
            func memberPath() -> String { JSONPointer.appending(path, member.name) }
            switch member.name {
            case "title": notification.message.title = context.string(member.value, memberPath())
            case "body": notification.message.body = context.string(member.value, memberPath())
            case "subtitle":
                givenFields.append(GivenField(parent: path, name: member.name, use: .apnsDelivered))
                notification.message.subtitle = context.string(member.value, memberPath())
            case "priority":
                givenFields.append(GivenField(parent: path, name: member.name, use: .apnsDelivered))
                if let priority = context.choice(member.value, memberPath(), MessagePriority.self, choices: ["normal", "high"]) {
                    notification.message.priority = priority
                }
            case "ttl":
                givenFields.append(GivenField(parent: path, name: member.name, use: .apnsDelivered))
                if let (_, ttl) = context.integer(member.value, memberPath(), in: 0...Message.defaultTTLSeconds) {
                    notification.message.ttlSeconds = ttl
                }
            default: context.unknownField(memberPath(), in: "message")
            }
        }
        for member in object.members where member.value == .null && !Self.messageKeys.contains(member.name) {
            context.unknownField(JSONPointer.appending(path, member.name), in: "message")
        }
    }

    static let messageKeys: Set<String> = ["title", "body", "subtitle", "priority", "ttl"]
}
