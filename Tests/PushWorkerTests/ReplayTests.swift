import Foundation
import PushgateKafka
import Testing

@testable import PushWorker

@Suite("Replay filters and files")
struct ReplayTests {
    let deadLetter = ReplayRecord(
        key: Array("k".utf8), value: Array("{".utf8),
        headers: [
            KafkaHeader(name: "trace", value: Array("1".utf8)),
            KafkaHeader(name: "__connect.errors.exception.class.name", value: Array("invalid_json".utf8)),
            KafkaHeader(
                name: "pushgate-errors",
                value: Array(
                    #"[{"code":"invalid_json","path":"","message":"m"},{"code":"invalid_url","path":"/a","message":"m"}]"#
                        .utf8)),
            KafkaHeader(name: "Pushgate-Format", value: Array("apns".utf8)),
        ])

    @Test func errorCodeMatchesTheFirstOrAnyListedError() {
        #expect(ReplayFilter(errorCode: "invalid_json").accepts(deadLetter))
        #expect(ReplayFilter(errorCode: "invalid_url").accepts(deadLetter))
        #expect(!ReplayFilter(errorCode: "too_large").accepts(deadLetter))
        #expect(ReplayFilter().accepts(deadLetter))
        #expect(!ReplayFilter(format: "apns").accepts(deadLetter), "header names are compared exactly")
    }

    @Test func pushgateAndConnectHeadersAreStripped() {
        #expect(
            ReplayFilter.forwardedHeaders(deadLetter.headers) == [KafkaHeader(name: "trace", value: Array("1".utf8))])
    }

    @Test func translateLinesAndPlainPayloadsAreRead() throws {
        let lines = [
            #"{"topic":"push.apns","format":"apns","key":null,"headers":[],"value":{"huge":1e400}}"#,
            #"{"topic":"push.dlq","format":null,"key":"user-1","headers":[["trace","7"],["pushgate-id","x"]],"value":"{\"a\":","value_base64":"eyJhIjr/"}"#,
            "",
            #"{"message":{"body":"plain"}}"#,
            "not json",
        ]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID()).jsonl").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let contents = try ReplayFileReader.read(path: path)
        #expect(contents.skippedOutputs == 1)
        #expect(contents.records.count == 3)
        #expect(
            contents.records[0]
                == ReplayRecord(
                    key: Array("user-1".utf8), value: [0x7B, 0x22, 0x61, 0x22, 0x3A, 0xFF],
                    headers: [
                        KafkaHeader(name: "trace", value: Array("7".utf8)),
                        KafkaHeader(name: "pushgate-id", value: Array("x".utf8)),
                    ]))
        #expect(contents.records[1] == ReplayRecord(key: nil, value: Array(lines[3].utf8)))
        #expect(contents.records[2] == ReplayRecord(key: nil, value: Array("not json".utf8)))
    }

    @Test func progressLineShowsTotalRateAndETA() {
        var progress = ReplayProgress(total: 100)
        progress.read = 50
        progress.written = 40
        progress.skipped = 10
        #expect(
            Replayer.describe(progress, elapsedSeconds: 5)
                == "records 50/100 (50%), 40 written, 10 skipped, 10 rec/s, ETA 5s")
    }
}
