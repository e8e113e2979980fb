import Foundation

extension WorkerMetrics {
    /// Reads librdkafka's statistics JSON (`statistics.interval.ms`) of the consumer or the producer:
    /// consumer lag per partition (`topics.*.partitions.*.consumer_lag`; unknown lag, -1, counts as 0)
    /// and the producer's queue depth (`msg_cnt`). Other fields and malformed JSON are ignored.
    public func recordStatistics(_ json: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return }
        switch object["type"] as? String {
        case "producer":
            if let depth = (object["msg_cnt"] as? NSNumber)?.int64Value { recordProducerQueue(depth) }
        case "consumer":
            guard let topics = object["topics"] as? [String: Any] else { return }
            for (topic, value) in topics {
                guard let partitions = (value as? [String: Any])?["partitions"] as? [String: Any] else { continue }
                for (name, partition) in partitions {
                    guard let number = Int32(name), number >= 0,
                        let lag = ((partition as? [String: Any])?["consumer_lag"] as? NSNumber)?.int64Value
                    else { continue }
                    recordConsumerLag(topic: topic, partition: number, lag: max(lag, 0))
                }
            }
        default:
            return
        }
    }
}
