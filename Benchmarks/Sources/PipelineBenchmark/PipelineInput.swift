import BenchProcess
import BenchSupport
import Foundation
import Logging
import PushModel
import PushTranslation
import PushgateKafka

/// The input of the pipeline benchmark, written once: the payload mix (``BenchInput``) in the input
/// topic, and the records the worker writes for each input, translated once from the input as it is on
/// the broker (its partition, offset and timestamp, as the worker reads it) into the file librdkafka-c
/// reads (the format is described in `Sources/librdkafka-c/main.c`).
struct PipelineInput {
    /// Input records written.
    let count: Int
    /// Their value bytes.
    let bytes: Int
    /// Partitions of the input topic.
    let partitions: Int
    /// The worker's records for them, which librdkafka-c writes too.
    let expectedOutputs: Int

    /// Writes `count` records of the mix to `topic` (keys `user-N`, one `trace-id` header, and a `traceparent`
    /// sampled on `traceparentShare` of them when that is given), generated one at a time, and waits until every
    /// one is acknowledged; then reads them back and writes the worker's records for each to `recordsPath`.
    static func write(
        count: Int, topic: String, translator configuration: TranslatorConfiguration, bootstrapServers: String,
        properties: [String: String], recordsPath: String, traceparentShare: Double?, logger: Logger
    ) async throws -> PipelineInput {
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                bootstrapServers: bootstrapServers,
                properties: ["partitioner": "murmur2_random", "linger.ms": "20"]
                    .merging(PipelineBenchmark.scoped(properties, to: "producer")) { $1 }),
            logger: logger)
        let failures = FailureCount()
        var bytes = 0
        do {
            for index in 0..<count {
                var input = BenchInput.record(index, topic: topic)
                if let traceparentShare {
                    input.headers.append(
                        RecordHeader(
                            name: "traceparent", text: BenchInput.traceparent(index, sampledShare: traceparentShare)))
                }
                bytes += input.value.count
                let record = KafkaProducerMessage(
                    topic: topic, key: input.key, value: input.value,
                    headers: input.headers.map { KafkaHeader(name: $0.name, bytes: $0.value) })
                try await producer.produceWhenQueued(record) { result in
                    if case .failure(let error) = result { failures.record(error) }
                }
            }
            try await producer.flush(timeout: .seconds(300))
        } catch {
            await producer.shutdown(flushTimeout: .zero)
            throw error
        }
        await producer.shutdown()
        if let (failed, first) = failures.summary {
            throw BenchmarkError("\(failed) input records could not be written; the first: \(first)")
        }
        let (partitions, outputs) = try await translate(
            topic: topic, count: count, translator: Translator(configuration: configuration),
            bootstrapServers: bootstrapServers, properties: properties, recordsPath: recordsPath, logger: logger)
        return PipelineInput(count: count, bytes: bytes, partitions: partitions, expectedOutputs: outputs)
    }

    /// Reads the `count` records of `topic` back, translates each as the worker does and writes the
    /// records file; the number of partitions and of records written.
    private static func translate(
        topic: String, count: Int, translator: Translator, bootstrapServers: String, properties: [String: String],
        recordsPath: String, logger: Logger
    ) async throws -> (partitions: Int, outputs: Int) {
        let reader = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                bootstrapServers: bootstrapServers, groupId: "bench-reader", topics: [],
                properties: PipelineBenchmark.scoped(properties, to: "consumer")),
            logger: logger)
        var byPartition: [Int32: [KafkaConsumerMessage]] = [:]
        let watermarks: [Int32: KafkaConsumer.Watermarks]
        do {
            watermarks = try await reader.watermarks(topic: topic)
            try await reader.assign(
                watermarks.map { KafkaTopicPartitionOffset(topic: topic, partition: $0.key, offset: $0.value.low) })
            var read = 0
            if count > 0 {
                for try await message in reader.messages {
                    byPartition[message.partition, default: []].append(message)
                    read += 1
                    if read == count { break }
                }
            }
        } catch {
            await reader.close()
            throw error
        }
        await reader.close()

        let partitions = watermarks.keys.sorted()
        guard partitions == Array(0..<Int32(partitions.count)) else {
            throw BenchmarkError("\(topic)'s partitions are not 0..<\(partitions.count)")
        }
        var inputs: [[KafkaConsumerMessage]] = []
        for partition in partitions {
            let messages = (byPartition[partition] ?? []).sorted { $0.offset < $1.offset }
            let first = watermarks[partition]?.low ?? 0
            guard messages.enumerated().allSatisfy({ $0.element.offset == first + Int64($0.offset) }),
                first + Int64(messages.count) == watermarks[partition]?.high
            else { throw BenchmarkError("\(topic)[\(partition)] was not read back whole, in order") }
            inputs.append(messages)
        }
        var outputs = 0
        var topics: [String: UInt32] = [:]
        var body = RecordsFileWriter()
        for messages in inputs {
            for message in messages {
                let input = InputRecord(
                    topic: message.topic, partition: message.partition, offset: message.offset, key: message.key,
                    value: message.value, headers: message.headers.map { RecordHeader(name: $0.name, bytes: $0.value) },
                    timestampMs: message.timestampMs)
                let records = translator.translate(input, readAtMs: Int64(Date().timeIntervalSince1970 * 1000))
                outputs += records.count
                body.u32(UInt32(records.count))
                for record in records {
                    let index =
                        topics[record.topic]
                        ?? {
                            let next = UInt32(topics.count)
                            topics[record.topic] = next
                            return next
                        }()
                    body.u32(index)
                    body.optionalBytes(record.key.map { $0[...] })
                    body.u32(UInt32(record.value.count))
                    body.bytes(record.value[...])
                    body.u32(UInt32(record.headers.count))
                    for header in record.headers {
                        let name = Array(header.name.utf8)
                        body.u32(UInt32(name.count))
                        body.bytes(name[...])
                        body.optionalBytes(header.value)
                    }
                }
            }
        }
        var head = RecordsFileWriter()
        head.bytes(Array("PGRECS1\n".utf8)[...])
        head.u32(UInt32(topics.count))
        for (name, _) in topics.sorted(by: { $0.value < $1.value }) {
            let bytes = Array(name.utf8)
            head.u32(UInt32(bytes.count))
            head.bytes(bytes[...])
        }
        head.u32(UInt32(partitions.count))
        for (partition, messages) in zip(partitions, inputs) {
            head.i64(watermarks[partition]?.low ?? 0)
            head.u32(UInt32(messages.count))
        }
        guard FileManager.default.createFile(atPath: recordsPath, contents: Data(head.buffer)),
            let file = FileHandle(forWritingAtPath: recordsPath)
        else { throw BenchmarkError("cannot write \(recordsPath)") }
        defer { try? file.close() }
        try file.seekToEnd()
        try body.buffer.withUnsafeBytes { try file.write(contentsOf: $0) }
        return (partitions.count, outputs)
    }
}

/// Little-endian fields of the records file.
struct RecordsFileWriter {
    var buffer: [UInt8] = []

    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) } }
    mutating func i64(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) } }
    mutating func bytes(_ bytes: ArraySlice<UInt8>) { buffer.append(contentsOf: bytes) }

    /// A length (-1: none) and the bytes.
    mutating func optionalBytes(_ bytes: ArraySlice<UInt8>?) {
        guard let bytes else { return u32(UInt32(bitPattern: -1)) }
        u32(UInt32(bytes.count))
        buffer.append(contentsOf: bytes)
    }
}

/// Counts failed deliveries of the input, from the producer's poll thread.
///
/// `@unchecked Sendable` is safe because the mutable state is only touched while holding `lock`.
final class FailureCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var first: KafkaError?

    func record(_ error: KafkaError) {
        lock.withLock {
            count += 1
            if first == nil { first = error }
        }
    }

    /// How many failed and the first failure; `nil` when none did.
    var summary: (Int, KafkaError)? {
        lock.withLock { first.map { (count, $0) } }
    }
}
