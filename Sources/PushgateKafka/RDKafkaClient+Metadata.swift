import CRdKafka

/// Metadata requests, blocking: call them on the poll thread or a thread of their own.
extension RDKafkaClient {
    /// Asks the cluster for its metadata (brokers only), blocking up to `timeout`; returns the broker count.
    func brokerCount(timeout: Duration) throws(KafkaError) -> Int {
        let milliseconds = Self.milliseconds(timeout)
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

    /// The partition ids of `topic` (blocking: call on the poll thread, or a thread of its own). A topic
    /// the cluster answers about with an error throws that error: `UNKNOWN_TOPIC_OR_PART` when it does not have it.
    func partitions(of topic: String, timeoutMs: Int32) throws(KafkaError) -> [Int32] {
        guard let topicHandle = rd_kafka_topic_new(handle, topic, nil) else {
            throw KafkaError.client("cannot open topic \(topic)")
        }
        defer { rd_kafka_topic_destroy(topicHandle) }
        var metadata: UnsafePointer<rd_kafka_metadata>?
        let code = rd_kafka_metadata(handle, 0, topicHandle, &metadata, timeoutMs)
        guard code == RD_KAFKA_RESP_ERR_NO_ERROR, let metadata else {
            throw KafkaError(code, message: "metadata of \(topic)")
        }
        defer { rd_kafka_metadata_destroy(metadata) }
        guard metadata.pointee.topic_cnt > 0, let topics = metadata.pointee.topics else {
            throw KafkaError.client("no metadata for topic \(topic)")
        }
        let entry = topics[0]
        if entry.err != RD_KAFKA_RESP_ERR_NO_ERROR {
            throw KafkaError(entry.err, message: "topic \(topic): \(String(cString: rd_kafka_err2str(entry.err)))")
        }
        guard let partitions = entry.partitions else { return [] }
        return (0..<Int(entry.partition_cnt)).map { partitions[$0].id }.sorted()
    }

    /// The topics of `names` that producing to would fail on for good: those the cluster answers about with
    /// `UNKNOWN_TOPIC_OR_PART` (it does not have them) or `TOPIC_AUTHORIZATION_FAILED` (this client may not
    /// use them), in the order of `names`. Each is asked about by name, as a producer asks before writing to it:
    /// a cluster that creates topics on demand (`auto.create.topics.enable`, and the client's
    /// `allow.auto.create.topics`, true for producers by default) creates it, as writing to it would.
    /// Any other answer about a topic (`LEADER_NOT_AVAILABLE` while it is being made, say) passes.
    /// - Throws: ``KafkaError`` when a request fails on the client's side (no answer within `timeout`, say).
    func unavailableTopics(_ names: [String], timeout: Duration) throws(KafkaError) -> [KafkaCluster.UnavailableTopic] {
        let milliseconds = Self.milliseconds(timeout)
        var unavailable: [KafkaCluster.UnavailableTopic] = []
        for name in names {
            do {
                _ = try partitions(of: name, timeoutMs: milliseconds)
            } catch
                where error.code == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART.rawValue
                || error.code == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED.rawValue
            {
                unavailable.append(KafkaCluster.UnavailableTopic(name: name, error: error))
            } catch  where error.code < 0 {
                throw KafkaError(
                    code: error.code,
                    message:
                        "cannot ask the cluster about topic \(name) within \(Self.seconds(milliseconds)) s: \(error.message)"
                )
            } catch {
                continue
            }
        }
        return unavailable
    }

    private static func milliseconds(_ timeout: Duration) -> Int32 {
        Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    }
}
