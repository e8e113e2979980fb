import Logging
import PushgateKafka

/// What a contender wrote in one run, as one number: each record's topic, partition, key, value and
/// headers (in order), the records sorted and hashed together, so that two runs compare equal exactly
/// when they wrote the same records, in whatever order (`--verify`).
struct OutputDigest: Equatable, CustomStringConvertible {
    let records: Int
    let hash: UInt64

    var description: String { "\(records) records, digest \(String(hash, radix: 16))" }

    /// The end offset of every partition of `topics`.
    static func ends(_ observer: KafkaConsumer, topics: [String]) async throws -> [KafkaTopicPartition: Int64] {
        var result: [KafkaTopicPartition: Int64] = [:]
        for topic in topics {
            for (partition, marks) in try await observer.watermarks(topic: topic) {
                result[KafkaTopicPartition(topic: topic, partition: partition)] = marks.high
            }
        }
        return result
    }

    /// Reads the records from `start` to `end` of every partition and digests them.
    static func read(
        from start: [KafkaTopicPartition: Int64], to end: [KafkaTopicPartition: Int64], servers: String,
        properties: [String: String], logger: Logger
    ) async throws -> OutputDigest {
        let ranges = end.compactMap { partition, end -> (KafkaTopicPartition, Int64, Int64)? in
            let first = start[partition] ?? 0
            return end > first ? (partition, first, end) : nil
        }
        let count = ranges.reduce(0) { $0 + Int($1.2 - $1.1) }
        let reader = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                bootstrapServers: servers, groupId: "bench-verify", topics: [],
                properties: PipelineBenchmark.scoped(properties, to: "consumer")),
            logger: logger)
        var serialized: [[UInt8]] = []
        do {
            try await reader.assign(ranges.map { KafkaTopicPartitionOffset($0.0, offset: $0.1) })
            if count > 0 {
                for try await message in reader.messages {
                    serialized.append(serialize(message))
                    if serialized.count == count { break }
                }
            }
        } catch {
            await reader.close()
            throw error
        }
        await reader.close()
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for record in serialized.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            for byte in record {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return OutputDigest(records: serialized.count, hash: hash)
    }

    private static func serialize(_ message: KafkaConsumerMessage) -> [UInt8] {
        var bytes: [UInt8] = []
        func field(_ value: some Collection<UInt8>) {
            withUnsafeBytes(of: UInt32(value.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: value)
        }
        field(Array(message.topic.utf8))
        field(Array(String(message.partition).utf8))
        field(message.key.map { [1] + $0 } ?? [0])
        field(message.value)
        for header in message.headers {
            field(Array(header.name.utf8))
            field(header.value.map { [1] + $0 } ?? [0])
        }
        return bytes
    }
}
