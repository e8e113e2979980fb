import PushModel

extension PayloadValidator {
    mutating func readMessage(_ token: Int, _ path: String) {
        let document = self.document
        guard let object = context.object(token, path) else { return }
        for (name, key, value) in document.members(object, keyedBy: MessageKey.self) {
            if document.isNull(value) {
                if key == nil {
                    context.unknownField(JSONPointer.appending(path, document.string(name)), in: "message")
                }
                continue
            }
            switch key {
            case .title: notification.message.title = context.string(value, "/message/title")
            case .body: notification.message.body = context.string(value, "/message/body")
            case .subtitle:
                givenUses.insert(.apnsDelivered)
                notification.message.subtitle = context.string(value, "/message/subtitle")
            case .priority:
                givenUses.insert(.deliveryOptions)
                if let priority = context.choice(
                    value, "/message/priority", MessagePriority.self, choices: ["normal", "high"])
                {
                    notification.message.priority = priority
                }
            case .ttl:
                givenUses.insert(.deliveryOptions)
                if let ttl = context.integer(value, "/message/ttl", in: 0...Message.defaultTTLSeconds) {
                    notification.message.ttlSeconds = ttl
                }
            case nil: context.unknownField(JSONPointer.appending(path, document.string(name)), in: "message")
            }
        }
    }
}
