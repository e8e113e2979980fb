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

        /// Whether this is librdkafka's mock cluster (`pushgate broker`, the embedded broker): its id
        /// is `mockCluster` followed by hexadecimal digits.
        public var isLibrdkafkaMock: Bool { clusterID?.hasPrefix("mockCluster") ?? false }

        /// Creates a description.
        public init(brokers: Int, clusterID: String?) {
            self.brokers = brokers
            self.clusterID = clusterID
        }
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
    /// too (from the same metadata response).
    public static func describe(
        bootstrapServers: String, properties: [String: String] = [:], timeout: Duration, logger: Logger
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
                    continuation.resume(returning: .success(Description(brokers: brokers, clusterID: id)))
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

extension RDKafkaClient {
    /// Asks the cluster for its metadata (brokers only), blocking up to `timeout`; returns the broker count.
    func brokerCount(timeout: Duration) throws(KafkaError) -> Int {
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1000
                + timeout.components.attoseconds / 1_000_000_000_000_000)
        var metadata: UnsafePointer<rd_kafka_metadata>?
        let code = rd_kafka_metadata(handle, 0, nil, &metadata, milliseconds)
        guard code == RD_KAFKA_RESP_ERR_NO_ERROR, let metadata else {
            let servers = bootstrapServers ?? "(none given)"
            throw KafkaError(
                code,
                message: "cannot reach bootstrap servers \(servers) within \(Self.seconds(milliseconds)) s: "
                    + String(cString: rd_kafka_err2str(code)))
        }
        defer { rd_kafka_metadata_destroy(metadata) }
        return Int(metadata.pointee.broker_cnt)
    }

    private static func seconds(_ milliseconds: Int32) -> String {
        milliseconds % 1000 == 0 ? String(milliseconds / 1000) : String(Double(milliseconds) / 1000)
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
