import CRdKafka
import Foundation
import Logging

/// Checks on a Kafka cluster made before a worker starts.
public enum KafkaCluster {
    /// What a metadata request tells of a cluster.
    public struct Description: Sendable, Equatable {
        /// How many brokers the cluster has.
        public var brokers: Int
        /// The cluster id, `nil` when the cluster gave none.
        public var clusterID: String?
        /// The topics asked about that writing to would fail on for good (the cluster does not have them,
        /// or the client may not use them), in the order they were asked about.
        public var unavailableTopics: [UnavailableTopic]

        /// Whether this is librdkafka's mock cluster (`pushgate broker`, the embedded broker): its id
        /// is `mockCluster` followed by hexadecimal digits.
        public var isLibrdkafkaMock: Bool { clusterID?.hasPrefix("mockCluster") ?? false }

        /// Creates a description.
        public init(brokers: Int, clusterID: String?, unavailableTopics: [UnavailableTopic] = []) {
            self.brokers = brokers
            self.clusterID = clusterID
            self.unavailableTopics = unavailableTopics
        }
    }

    /// A topic the cluster answered about with an error that writing to it would meet too.
    public struct UnavailableTopic: Sendable, Equatable, CustomStringConvertible {
        /// The topic's name.
        public var name: String
        /// The cluster's answer: `UNKNOWN_TOPIC_OR_PART` or `TOPIC_AUTHORIZATION_FAILED`.
        public var error: KafkaError

        /// Creates one.
        public init(name: String, error: KafkaError) {
            self.name = name
            self.error = error
        }

        /// The name and the error's code name, `push.fcm (UNKNOWN_TOPIC_OR_PART)`.
        public var description: String { "\(name) (\(error.codeName))" }
    }

    /// Connects to `bootstrapServers` with `properties` (TLS, SASL, ...) and asks for the cluster's
    /// metadata, waiting at most `timeout`; returns how many brokers the cluster has.
    ///
    /// The blocking `rd_kafka_metadata` call runs on a thread of its own, never on the cooperative pool.
    /// - Throws: ``KafkaError`` saying `cannot reach bootstrap servers X within N s: REASON` when no
    ///   broker answered in time, or the configuration error when `properties` are invalid.
    public static func checkReachable(
        bootstrapServers: String, properties: [String: String] = [:], timeout: Duration, logger: Logger
    ) async throws(KafkaError) -> Int {
        try await describe(bootstrapServers: bootstrapServers, properties: properties, timeout: timeout, logger: logger)
            .brokers
    }

    /// Like ``checkReachable(bootstrapServers:properties:timeout:logger:)``, and returns the cluster id
    /// too (from the same metadata response), and which of `topics` writing to would fail on for good,
    /// each asked about by name as a producer asks before writing (a cluster that creates topics on demand
    /// creates them: see `RDKafkaClient.unavailableTopics(_:timeout:)`).
    public static func describe(
        bootstrapServers: String, properties: [String: String] = [:], topics: [String] = [], timeout: Duration,
        logger: Logger
    ) async throws(KafkaError) -> Description {
        var all = properties.sorted { $0.key < $1.key }.filter { $0.key != "bootstrap.servers" }
        all.insert(("bootstrap.servers", bootstrapServers), at: 0)
        let client = try RDKafkaClient.make(
            kind: .producer, properties: all, callbacks: RDKafkaCallbacks(logger: logger, statisticsHandler: nil))
        let outcome: Result<Description, KafkaError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                defer { client.destroy() }
                do throws(KafkaError) {
                    let brokers = try client.brokerCount(timeout: timeout)
                    // The metadata just received holds the id: this call does not wait.
                    let id = rd_kafka_clusterid(client.handle, 0).map { pointer in
                        defer { rd_kafka_mem_free(client.handle, pointer) }
                        return String(cString: pointer)
                    }
                    let unavailable = try client.unavailableTopics(topics, timeout: timeout)
                    continuation.resume(
                        returning: .success(
                            Description(brokers: brokers, clusterID: id, unavailableTopics: unavailable)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "kafka-metadata-check"
            thread.start()
        }
        return try outcome.get()
    }
}

extension KafkaProducer {
    /// Asks the cluster for its metadata on a thread of its own (not the poll thread, so delivery
    /// reports keep flowing), waiting at most `timeout`: succeeds once the producer reaches a broker.
    /// Returns the number of brokers.
    public func checkConnection(timeout: Duration) async throws(KafkaError) -> Int {
        let client = self.client
        let outcome: Result<Int, KafkaError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                // The handle cannot be destroyed during the call (shutdown waits for it, `timeout` at most).
                let result: Result<Int, KafkaError>? = client.withLiveHandle { _ in
                    do throws(KafkaError) {
                        return .success(try client.brokerCount(timeout: timeout))
                    } catch {
                        return .failure(error)
                    }
                }
                continuation.resume(returning: result ?? .failure(KafkaError.client("the producer is shut down")))
            }
            thread.name = "kafka-metadata"
            thread.start()
        }
        return try outcome.get()
    }
}
