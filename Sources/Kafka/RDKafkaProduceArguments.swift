import CRdKafka

/// The `rd_kafka_vu_t` array of one `rd_kafka_produceva` call, with the C memory it points into.
///
/// librdkafka copies everything during the call (`RD_KAFKA_MSG_F_COPY`; headers are always copied), so
/// the memory is freed when this value is released, right after the call.
final class RDKafkaProduceArguments {
    private(set) var values: [rd_kafka_vu_t] = []
    private var allocations: [UnsafeMutableRawPointer] = []

    init(message: KafkaProducerMessage, opaque: UnsafeMutableRawPointer) {
        var topic = rd_kafka_vu_t()
        topic.vtype = RD_KAFKA_VTYPE_TOPIC
        topic.u.cstr = UnsafePointer(cString(message.topic))
        values.append(topic)
        if let partition = message.partition {
            var entry = rd_kafka_vu_t()
            entry.vtype = RD_KAFKA_VTYPE_PARTITION
            entry.u.i32 = partition
            values.append(entry)
        }
        var flags = rd_kafka_vu_t()
        flags.vtype = RD_KAFKA_VTYPE_MSGFLAGS
        flags.u.i = RD_KAFKA_MSG_F_COPY
        values.append(flags)
        if let key = message.key {
            var entry = rd_kafka_vu_t()
            entry.vtype = RD_KAFKA_VTYPE_KEY
            entry.u.mem.ptr = copy(key)
            entry.u.mem.size = key.count
            values.append(entry)
        }
        var value = rd_kafka_vu_t()
        value.vtype = RD_KAFKA_VTYPE_VALUE
        value.u.mem.ptr = copy(message.value)
        value.u.mem.size = message.value.count
        values.append(value)
        for header in message.headers {
            var entry = rd_kafka_vu_t()
            entry.vtype = RD_KAFKA_VTYPE_HEADER
            entry.u.header.name = UnsafePointer(cString(header.name))
            if let bytes = header.value {
                entry.u.header.val = UnsafeRawPointer(copy(bytes))
                entry.u.header.size = bytes.count
            } else {
                entry.u.header.val = nil
                entry.u.header.size = 0
            }
            values.append(entry)
        }
        if let timestamp = message.timestampMs {
            var entry = rd_kafka_vu_t()
            entry.vtype = RD_KAFKA_VTYPE_TIMESTAMP
            entry.u.i64 = timestamp
            values.append(entry)
        }
        var context = rd_kafka_vu_t()
        context.vtype = RD_KAFKA_VTYPE_OPAQUE
        context.u.ptr = opaque
        values.append(context)
    }

    deinit {
        for allocation in allocations { allocation.deallocate() }
    }

    /// A copy of `bytes` (never a null pointer, so an empty value stays empty rather than null).
    private func copy(_ bytes: [UInt8]) -> UnsafeMutableRawPointer {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { memory.copyMemory(from: base, byteCount: source.count) }
        }
        allocations.append(memory)
        return memory
    }

    private func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
        let utf8 = Array(text.utf8) + [0]
        return copy(utf8).bindMemory(to: CChar.self, capacity: utf8.count)
    }
}
