import PushModel
import PushgateKafka

extension DeliveredRecord {
    /// The record `message` is, its format from its `pushgate-format` header or else from its topic;
    /// `nil` when neither names a delivered format.
    init?(_ message: KafkaConsumerMessage, formatOfTopic: (String) -> OutputFormat?) {
        let headers = message.headers.map { (name: $0.name, value: Array($0.value ?? [])) }
        let named = headers.first { $0.name == "pushgate-format" }.flatMap { header in
            String(validating: header.value, as: UTF8.self).flatMap(OutputFormat.init(rawValue:))
        }
        guard let format = named ?? formatOfTopic(message.topic) else { return nil }
        self.init(
            topic: message.topic, partition: message.partition, offset: message.offset,
            key: message.key.flatMap { String(validating: $0, as: UTF8.self) }, value: message.value, headers: headers,
            timestampMilliseconds: message.timestampMs ?? DeliveryClock.nowMilliseconds(), format: format)
    }
}
