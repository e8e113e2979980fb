import Logging
import PushgateKafka
import PushgateTestSupport
import Testing

@Suite("Embedded broker fault-injection commands")
struct EmbeddedBrokerControlTests {
    @Test func validCommandsAnswerOk() throws {
        let broker = try EmbeddedBroker(brokerCount: 2, topics: ["t"], partitions: 2, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        #expect(broker.bootstrapServers.contains("127.0.0.1") || broker.bootstrapServers.contains("localhost"))
        for line in [
            "down 2", "up 2", "rtt 1 50", "rtt 1 0", "error Produce NOT_LEADER_FOR_PARTITION 3",
            "error fetch _TRANSPORT", "error OffsetCommit 7", "clear Produce", "topic extra 4",
            "topic-error extra UNKNOWN_TOPIC_OR_PART", "topic-error extra NO_ERROR", "",
        ] {
            #expect(broker.perform(controlCommand: line) == "ok", "\(line)")
        }
    }

    @Test func badCommandsAnswerAnError() throws {
        let broker = try EmbeddedBroker(brokerCount: 1, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        for line in [
            "down 3", "down x", "rtt 1", "error Nope NOT_LEADER_FOR_PARTITION", "error Produce NO_SUCH_ERROR",
            "error Produce NOT_LEADER_FOR_PARTITION -1", "launch", "topic t x",
            "topic-error t", "topic-error t NO_SUCH_ERROR",
        ] {
            #expect(broker.perform(controlCommand: line).hasPrefix("error: "), "\(line)")
        }
        broker.shutdown()
        #expect(broker.perform(controlCommand: "up 1") == "error: the embedded broker is shut down")
    }

    /// The mock cluster creates any topic a client asks about (4 partitions); `topic-error` makes one look
    /// missing to every client until `NO_ERROR` takes the error away.
    @Test func aTopicErrorHidesTheTopicUntilItIsTakenAway() async throws {
        let broker = try EmbeddedBroker(topics: ["t"], partitions: 2, logger: KafkaTestSupport.logger)
        defer { broker.shutdown() }
        let consumer = try KafkaTestSupport.consumer(for: broker, groupId: "look", topics: [])
        #expect(try await consumer.listedWatermarks(topic: "never.made").count == 4)
        #expect(broker.perform(controlCommand: "topic-error later UNKNOWN_TOPIC_OR_PART") == "ok")
        await #expect(throws: KafkaError.self) { try await consumer.listedWatermarks(topic: "later") }
        #expect(broker.perform(controlCommand: "topic-error later NO_ERROR") == "ok")
        let marks = try await eventually(seconds: 10, "the topic to be there again") {
            try? await consumer.listedWatermarks(topic: "later")
        }
        #expect(marks.keys.sorted() == [0, 1, 2, 3])
        await consumer.close()
    }

    @Test func tracedEventsLogAnAppendBeforeItIsAcknowledged() async throws {
        for traced in [true, false] {
            let log = CapturedLog()
            let broker = try EmbeddedBroker(
                topics: ["traced"], partitions: 1, logger: Logger(label: "broker", factory: log.handler),
                traceEvents: traced)
            defer { broker.shutdown() }
            let producer = try KafkaTestSupport.producer(for: broker)
            for value in ["a", "b"] {
                _ = try await producer.send(KafkaProducerMessage(topic: "traced", key: nil, value: Array(value.utf8)))
            }
            let appends = log.lines.filter { $0.contains("Log append traced [0] 1 messages") }
            await producer.shutdown()
            #expect(appends.count == (traced ? 2 : 0), "\(log.lines.suffix(5))")
            #expect(!traced || appends.last?.contains("at offset 1 ") == true)
        }
    }

    @Test func errorNamesAndApiKeysResolve() {
        #expect(KafkaError.code(named: "NOT_LEADER_FOR_PARTITION") == 6)
        #expect(KafkaError.code(named: "rd_kafka_resp_err_not_leader_for_partition") == 6)
        #expect(KafkaError.code(named: "_TRANSPORT") == -195)
        #expect(KafkaError.code(named: "NOPE") == nil)
        #expect(KafkaAPIKey.key(named: "produce") == 0)
        #expect(KafkaAPIKey.key(named: "JoinGroup") == 11)
        #expect(KafkaError.name(of: 6) == "NOT_LEADER_FOR_PARTITION")
    }
}
