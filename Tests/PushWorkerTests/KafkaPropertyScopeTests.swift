import CRdKafka
import Foundation
import Logging
import PushWorker
import PushgateKafka
import PushgateTestSupport
import Testing

/// `-X` properties reach only the client they belong to.
@Suite struct KafkaPropertyScopeTests {
    static let given = [
        "client.id": "both", "session.timeout.ms": "6000", "linger.ms": "7", "producer.linger.ms": "9",
        "consumer.fetch.wait.max.ms": "50", "consumer.client.id": "reader", "sasl.password": "secret",
    ]

    @Test func unprefixedPropertiesGoToTheClientsTheyApplyTo() {
        #expect(
            KafkaPropertyScope.properties(Self.given, for: .producer)
                == ["client.id": "both", "linger.ms": "9", "sasl.password": "secret"])
        #expect(
            KafkaPropertyScope.properties(Self.given, for: .consumer)
                == [
                    "client.id": "reader", "session.timeout.ms": "6000", "fetch.wait.max.ms": "50",
                    "sasl.password": "secret",
                ])
    }

    @Test func thePrefixAloneIsNotAProperty() {
        #expect(
            KafkaPropertyScope.properties(["consumer.": "x", "producer": "y"], for: .consumer) == [
                "consumer.": "x", "producer": "y",
            ])
    }

    /// The tables are librdkafka 2.0.2's; the linked librdkafka says at run time which client each property is for.
    @Test func theTablesMatchWhatLibrdkafkaPrints() throws {
        let file = try #require(tmpfile())
        defer { fclose(file) }
        rd_kafka_conf_properties_show(file)
        fflush(file)
        rewind(file)
        var text = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let count = fread(&buffer, 1, buffer.count, file), count > 0 {
            text.append(contentsOf: buffer[..<count])
        }
        var consumer: Set<String> = []
        var producer: Set<String> = []
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            let columns = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard columns.count > 2 else { continue }
            if columns[1] == "C" { consumer.insert(columns[0]) }
            if columns[1] == "P" { producer.insert(columns[0]) }
        }
        #expect(consumer.contains("session.timeout.ms") && producer.contains("linger.ms"))
        #expect(consumer == KafkaPropertyScope.consumerOnly)
        #expect(producer == KafkaPropertyScope.producerOnly)
    }

    /// Before the scope, `-X session.timeout.ms=6000` made the producer warn at every start.
    @Test func aConsumerPropertyNoLongerMakesTheProducerWarn() async throws {
        let unscoped = try await producerWarnings(["session.timeout.ms": "6000"])
        #expect(unscoped.contains { $0.contains("session.timeout.ms") }, "librdkafka no longer warns: \(unscoped)")
        let scoped = try await producerWarnings(
            KafkaPropertyScope.properties(["session.timeout.ms": "6000"], for: .producer))
        #expect(
            !scoped.contains { $0.contains("session.timeout.ms") || $0.contains("onfiguration property") }, "\(scoped)")
    }

    private func producerWarnings(_ properties: [String: String]) async throws -> [String] {
        let captured = CapturedLog()
        let logger = Logger(label: "test") { captured.handler(label: $0) }
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(bootstrapServers: "127.0.0.1:9", properties: properties),
            logger: logger)
        try await Task.sleep(for: .milliseconds(300))
        await producer.shutdown(flushTimeout: .milliseconds(100))
        // Only configuration warnings: the unreachable bootstrap server also makes connection warnings.
        return captured.lines.filter {
            $0.hasPrefix("warning") && !$0.contains("_TRANSPORT") && !$0.contains("_ALL_BROKERS_DOWN")
        }
    }
}
