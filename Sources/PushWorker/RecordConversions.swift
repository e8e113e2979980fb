import PushModel
import PushgateKafka
import PushgateTracing

extension InputRecord {
    /// The translator's view of a consumed record (borrowed: only the fields it keeps are retained).
    public init(_ message: borrowing KafkaConsumerMessage) {
        self.init(
            topic: message.topic, partition: message.partition, offset: message.offset, key: message.key,
            value: message.value, headers: message.headers.map { RecordHeader(name: $0.name, bytes: $0.value) },
            timestampMs: message.timestampMs, valueIsNull: message.valueIsNull)
    }
}

extension InputRecord {
    /// The translator's copy of a record read in place.
    init(_ record: KafkaRecordView) {
        var headers: [RecordHeader] = []
        headers.reserveCapacity(record.headerCount)
        record.forEachHeader { headers.append(RecordHeader(name: $0, value: $1.map { Array($0) })) }
        self.init(record, headers: headers)
    }

    /// The translator's copy of a record read in place, its header list with room for `extra` more; where its
    /// trace headers are is noted in `places` as the list is made.
    init(_ record: KafkaRecordView, reservingHeaders extra: Int, notingTraceHeaders places: inout TraceHeaderPlaces) {
        var headers: [RecordHeader] = []
        headers.reserveCapacity(record.headerCount + extra)
        record.forEachHeader {
            places.note($0, at: headers.count)
            headers.append(RecordHeader(name: $0, value: $1.map { Array($0) }))
        }
        self.init(record, headers: headers)
    }

    private init(_ record: KafkaRecordView, headers: [RecordHeader]) {
        self.init(
            topic: record.topic, partition: record.partition, offset: record.offset,
            key: record.withKey { $0.map { Array($0) } }, value: record.withValue { Array($0) },
            headers: headers, timestampMs: record.timestampMs, valueIsNull: record.valueIsNull)
    }
}

extension KafkaProducerMessage {
    /// The Kafka record of a translator output: same topic, key, value and headers; the partitioner
    /// chooses the partition from the key.
    public init(_ record: OutputRecord) {
        self.init(
            topic: record.topic, key: record.key, value: Array(record.value),
            headers: record.headers.map { KafkaHeader(name: $0.name, bytes: $0.value) },
            valueIsNull: record.valueIsNull)
    }
}
