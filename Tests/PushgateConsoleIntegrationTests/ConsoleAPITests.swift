import Foundation
import Logging
import PushModel
import PushTranslation
import PushgateConsole
import PushgateHTTP
import PushgateKafka
import PushgateTestSupport
import Testing

/// `pushgate console`'s API against the embedded broker: dead letters written by an independent client
/// (confluent-kafka) from what the translator makes of bad payloads, read back through the API
/// (counts, filters, paging, a time range, records pushgate did not write), re-driven (once, however
/// often asked), checked in the input topic with the independent client; the token rule.
@Suite("Console API", .serialized)
struct ConsoleAPITests {
    static let token = "s3cret-token"

    /// Bad payloads, each with its one expected code: 4 unknown_field, 3 invalid_url, 2 invalid_json.
    static let payloads: [(String, String)] = [
        (#"{"id":"u1","message":{"title":"a","body":"b"},"colour":"red"}"#, "unknown_field"),
        (#"{"id":"u2","message":{"title":"a","body":"b"},"colour":"red"}"#, "unknown_field"),
        (#"{"id":"u3","message":{"title":"a","body":"b","tone":1}}"#, "unknown_field"),
        (#"{"id":"u4","message":{"title":"a","body":"b"},"x":1}"#, "unknown_field"),
        (#"{"id":"l1","message":{"title":"a","body":"b"},"action":{"type":"url","value":"not a url"}}"#, "invalid_url"),
        (
            #"{"id":"l2","message":{"title":"a","body":"b"},"action":{"type":"url","value":"http://a b"}}"#,
            "invalid_url"
        ),
        (#"{"id":"l3","message":{"title":"a","body":"b"},"action":{"type":"url","value":"::"}}"#, "invalid_url"),
        ("{not json", "invalid_json"),
        ("[1,", "invalid_json"),
    ]

    /// The dead letters of ``payloads`` (as the worker writes them), the first five an hour older, then
    /// a record pushgate did not write (a binary value, no pushgate headers).
    static func deadLetters(now: Int64) -> [PythonKafkaClient.Record] {
        let translator = Translator()
        var records: [PythonKafkaClient.Record] = []
        for (index, (payload, _)) in payloads.enumerated() {
            let input = InputRecord(
                topic: "push.unified", partition: 0, offset: Int64(index), key: Array("key-\(index % 3)".utf8),
                value: Array(payload.utf8), headers: [RecordHeader(name: "trace", text: "t\(index)")],
                timestampMs: now)
            for letter in translator.translate(input, readAtMs: now) where letter.isDeadLetter {
                records.append(
                    PythonKafkaClient.Record(
                        key: letter.key, value: Array(letter.value),
                        headers: letter.headers.map { ($0.name, $0.value.map(Array.init)) },
                        timestamp: index < 5 ? now - 3_600_000 : now))
            }
        }
        records.append(
            PythonKafkaClient.Record(
                key: nil, value: [0xFF, 0xFE, 0x00, 0x80], headers: [("origin", Array("elsewhere".utf8))],
                timestamp: now))
        return records
    }

    struct Console {
        let port: Int
        let bootstrap: String
        let broker: EmbeddedBroker

        func get(
            _ path: String, token: String? = ConsoleAPITests.token, method: String = "GET", host: String = "localhost",
            headers: String = ""
        ) async throws -> HTTPTestSupport.HTTPResponse {
            let auth = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
            let request = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n\(auth)\(headers)Connection: close\r\n\r\n"
            return try await HTTPTestSupport.send(Array(request.utf8), port: port)
        }

        func post(
            _ path: String, _ body: String, token: String? = ConsoleAPITests.token,
            contentType: String = "application/json"
        ) async throws -> HTTPTestSupport.HTTPResponse {
            let auth = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
            let request =
                "POST \(path) HTTP/1.1\r\nHost: localhost\r\n\(auth)Content-Type: \(contentType)\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            return try await HTTPTestSupport.send(Array(request.utf8), port: port)
        }

        func json(_ path: String) async throws -> [String: Any] {
            let answer = try await get(path)
            #expect(answer.status == 200, "\(path): \(answer.body)")
            return try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
        }
    }

    /// A broker with dead letters in `push.dlq`, and a console with a token reading it.
    /// `extraOutputTopics`: output topics the console is told of, which the cluster answers as missing
    /// (the mock cluster would otherwise create any topic a client asks about) until the test says
    /// `topic-error NAME NO_ERROR`.
    static func withConsole(
        extraOutputTopics: [String] = [], extraLetters: [PythonKafkaClient.Record] = [],
        _ body: (Console, Int64) async throws -> Void
    ) async throws {
        let logger = BrokerTesting.logger("console-test", level: .critical)
        let topics = ["push.unified"] + OutputFormat.allCases.map(\.defaultTopic) + ["push.dlq"]
        let broker = try EmbeddedBroker(topics: topics, partitions: 2, logger: logger)
        defer { broker.shutdown() }
        for topic in extraOutputTopics {
            #expect(broker.perform(controlCommand: "topic-error \(topic) UNKNOWN_TOPIC_OR_PART") == "ok")
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await PythonKafkaClient.produce(
            deadLetters(now: now) + extraLetters, to: "push.dlq", bootstrap: broker.bootstrapServers)
        var settings = ConsoleSettings(
            bootstrapServers: broker.bootstrapServers, embeddedBroker: false, inputTopic: "push.unified",
            deadLetterTopic: "push.dlq",
            outputTopics: OutputFormat.allCases.map { ($0.rawValue, $0.defaultTopic) }
                + extraOutputTopics.map { ("extra", $0) },
            groupId: "pushgate", androidFormats: ["android-expandable"], lenient: false, consumerProperties: [:],
            producerProperties: [:])
        settings.partitionCheckInterval = .milliseconds(300)
        let port = PortBox()
        let server = try ConsoleServer(
            host: "127.0.0.1", port: 0, token: try BearerToken(token + "\n"), settings: settings,
            resources: try ConsoleResources.load(), maxPayloadBytes: 1_048_576, logger: logger,
            onListening: { port.set($0) })
        let running = Task { try await server.run() }
        let console = Console(
            port: try await eventually(seconds: 20, "the console to listen") { port.value },
            bootstrap: broker.bootstrapServers, broker: broker)
        // Every letter read (9 of pushgate's, 1 other and the extra ones) before the test starts.
        _ = try await eventually(seconds: 30, "the console to read every dead letter") {
            let page = try await console.json("/api/dead-letters?limit=500")
            return (page["total"] as? Int) == 10 + extraLetters.count ? page : nil
        }
        do {
            try await body(console, now)
        } catch {
            running.cancel()
            throw error
        }
        running.cancel()
        try await running.value
    }

    @Test func everyAPIRequestNeedsTheTokenButThePageDoesNot() async throws {
        try await Self.withConsole { console, _ in
            for path in ["/api/dead-letters", "/api/live", "/api/config", "/api/dead-letters/0/0", "/api/redrives"] {
                let refused = try await console.get(path, token: nil)
                #expect(refused.status == 401, "\(path)")
                #expect(refused.headers.contains("WWW-Authenticate: Bearer"))
                #expect(try await console.get(path, token: "s3cret-tokeN").status == 401, "\(path), a wrong token")
                #expect(try await console.get(path, token: "s3cret-token-longer").status == 401)
            }
            #expect(try await console.post("/api/redrive", #"{"letters":[]}"#, token: nil).status == 401)
            #expect(try await console.post("/api/translate", #"{"payload":"{}"}"#, token: nil).status == 401)
            // A path spelled with empty segments is no way around the token.
            for path in ["//api/dead-letters/0/0", "//api//dead-letters//0//0", "/api/../api/live", "/nope"] {
                #expect(try await console.get(path, token: nil).status == 401, "\(path)")
            }
            let page = try await console.get("/", token: nil)
            #expect(page.status == 200)
            #expect(page.headers.contains("Content-Security-Policy: frame-ancestors 'none'"))
            #expect(page.body.contains("pushgate console"))
            #expect(try await console.get("/api/config").status == 200)
            // The playground's request size limit: the payload limit plus 64 KiB of envelope.
            let large = String(repeating: "x", count: 1_048_576 + 65_537)
            #expect(try await console.post("/api/redrive", large).status == 413)
        }
    }

    @Test func countsFiltersAndPagesOverEveryLetter() async throws {
        try await Self.withConsole { console, now in
            let all = try await console.json("/api/dead-letters?limit=500")
            #expect(all["counts"] as? [String: Int] == ["unknown_field": 4, "invalid_url": 3, "invalid_json": 2])
            #expect(all["stage_counts"] as? [String: Int] == ["validate": 7, "parse": 2, "none": 1])
            #expect(all["cursor"] is NSNull)
            let letters = try #require(all["letters"] as? [[String: Any]])
            #expect(letters.count == 10)
            // The record pushgate did not write: shown as such, its bytes in base64.
            let foreign = try #require(letters.first { ($0["written_by_pushgate"] as? Bool) == false })
            #expect(foreign["stage"] is NSNull)
            #expect(foreign["key"] is NSNull)
            #expect((foreign["errors"] as? [Any])?.isEmpty == true)
            #expect(foreign["binary"] as? Bool == true)
            #expect(foreign["value_base64"] as? String == Data([0xFF, 0xFE, 0x00, 0x80]).base64EncodedString())
            // A letter of pushgate's: errors parsed, source record, value as text.
            let url = try #require(letters.first { ($0["value"] as? String)?.contains("\"l2\"") == true })
            #expect(url["stage"] as? String == "validate")
            let errors = try #require(url["errors"] as? [[String: String]])
            #expect(errors.map { $0["code"] } == ["invalid_url"])
            #expect(errors.first?["path"] == "/action/value")
            #expect((url["source"] as? [String: Any])?["offset"] as? Int == 5)
            #expect((url["headers"] as? [[Any]])?.first?.first as? String == "trace")

            for (query, expected) in [
                ("code=unknown_field", 4), ("code=invalid_json&stage=parse", 2), ("stage=none", 1), ("key=key-0", 3),
                ("q=not+a+url", 1), ("q=%22colour%22", 2), ("topic=push.unified&partition=0", 9),
                ("code=invalid_url&key=key-2", 1), ("code=no_such_code", 0),
            ] {
                let page = try await console.json("/api/dead-letters?\(query)")
                #expect(page["matching"] as? Int == expected, "\(query)")
                #expect((page["letters"] as? [Any])?.count == expected, "\(query)")
            }
            // The text search read every value back from Kafka, and says so; no other filter carries it.
            let searched = try await console.json("/api/dead-letters?q=colour")
            let search = try #require(searched["search"] as? [String: Any])
            #expect(search["done"] as? Bool == true)
            #expect(search["scanned"] as? Int == 10)
            #expect(search["total"] as? Int == 10)
            #expect(all["search"] == nil)
            // A time range bounds the counts too: the first five payloads' letters are an hour older.
            let recent = try await console.json("/api/dead-letters?from_ms=\(now - 60_000)")
            #expect(recent["counts"] as? [String: Int] == ["invalid_json": 2, "invalid_url": 2])
            #expect(recent["matching"] as? Int == 5)
            let older = try await console.json("/api/dead-letters?to_ms=\(now - 60_000)&code=unknown_field")
            #expect(older["matching"] as? Int == 4)

            // Pages of 3, newest first, each letter once, and the same order as one page of all.
            var seen: [String] = []
            var cursor: String? = nil
            repeat {
                let page = try await console.json("/api/dead-letters?limit=3" + (cursor.map { "&cursor=\($0)" } ?? ""))
                let batch = try #require(page["letters"] as? [[String: Any]])
                #expect(batch.count <= 3)
                seen += batch.map { "\($0["partition"]!)/\($0["offset"]!)" }
                cursor = page["cursor"] as? String
            } while cursor != nil
            // Newest first by record timestamp: the hour-older letters come last.
            let times = letters.map { $0["timestamp_ms"] as? Int ?? 0 }
            #expect(times == times.sorted(by: >))
            #expect(seen == letters.map { "\($0["partition"]!)/\($0["offset"]!)" })
            #expect(try await console.get("/api/dead-letters?limit=x").status == 400)
            #expect(try await console.get("/api/dead-letters/9/999").status == 404)
        }
    }

    @Test func aRedriveWritesEachLetterOnceWithItsKeyAndForwardedHeaders() async throws {
        try await Self.withConsole { console, _ in
            let page = try await console.json("/api/dead-letters?code=invalid_url")
            let letters = try #require(page["letters"] as? [[String: Any]])
            let (first, second) = (letters[0], letters[1])
            let fixed = #"{"id":"l-fixed","message":{"title":"a","body":"b"}}"#
            let request = """
                {"letters":[{"partition":\(first["partition"]!),"offset":\(first["offset"]!),"payload":\(String(decoding: try JSONEncoder().encode(fixed), as: UTF8.self))},\
                {"partition":\(second["partition"]!),"offset":\(second["offset"]!)}]}
                """
            let answer = try await console.post("/api/redrive", request)
            #expect(answer.status == 200, "\(answer.body)")
            let written = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
            #expect(written["written"] as? Int == 2)
            // The same request again, and the second letter alone: nothing written twice.
            let again = try await console.post("/api/redrive", request)
            #expect(again.body.contains(#""written":0"#), "\(again.body)")
            let alone = try await console.post(
                "/api/redrive", #"{"letters":[{"partition":\#(second["partition"]!),"offset":\#(second["offset"]!)}]}"#)
            #expect(alone.body.contains(#""written":0"#), "\(alone.body)")
            // ... and answered with the records the first request wrote.
            func places(_ body: String) throws -> [String] {
                let answer = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                return (answer?["records"] as? [[String: Any]] ?? []).map { "\($0["partition"]!)/\($0["offset"]!)" }
            }
            #expect(try places(again.body) == places(answer.body))
            #expect(try places(answer.body).count == 2)
            #expect(again.body.contains(#""new":false"#) && !again.body.contains(#""new":true"#))
            // A letter that is not there, and a body that is not a request.
            #expect(
                try await console.post("/api/redrive", #"{"letters":[{"partition":0,"offset":777}]}"#).status == 404)
            #expect(try await console.post("/api/redrive", #"{"letter":[]}"#).status == 400)

            let records = try await PythonKafkaClient.dump(
                ["push.unified"], bootstrap: console.bootstrap, expect: 2, timeout: 30)
            #expect(records.count == 2)
            let byOrigin = Dictionary(
                records.map { record in
                    (
                        String(
                            decoding: record.headerPairs.first { $0.0 == "pushgate-redriven-from" }?.1 ?? [],
                            as: UTF8.self), record
                    )
                }, uniquingKeysWith: { first, _ in first })
            let fixedRecord = try #require(byOrigin["push.dlq:\(first["partition"]!):\(first["offset"]!)"])
            #expect(String(decoding: fixedRecord.valueBytes, as: UTF8.self) == fixed)
            #expect(fixedRecord.keyBytes.map { String(decoding: $0, as: UTF8.self) } == first["key"] as? String)
            #expect(fixedRecord.headerPairs.map(\.0) == ["trace", "pushgate-redriven-from"])
            let unchanged = try #require(byOrigin["push.dlq:\(second["partition"]!):\(second["offset"]!)"])
            #expect(String(decoding: unchanged.valueBytes, as: UTF8.self) == second["value"] as? String)
        }
    }

    /// The dead letter of a tombstone (an input with a null value) keeps the null, and re-driven unchanged
    /// it is a tombstone again, not an empty value.
    @Test func aTombstonesLetterIsRedrivenAsATombstone() async throws {
        let input = InputRecord(
            topic: "push.unified", partition: 1, offset: 40, key: Array("gone".utf8), value: [], timestampMs: nil,
            valueIsNull: true)
        let letter = try #require(Translator().translate(input, readAtMs: 0).first)
        #expect(letter.isDeadLetter && letter.valueIsNull)
        let record = PythonKafkaClient.Record(
            key: letter.key, value: nil, headers: letter.headers.map { ($0.name, $0.value.map(Array.init)) })
        try await Self.withConsole(extraLetters: [record]) { console, _ in
            let page = try await console.json("/api/dead-letters?key=gone")
            let shown = try #require((page["letters"] as? [[String: Any]])?.first)
            #expect(shown["value_null"] as? Bool == true)
            let others = try #require(
                try await console.json("/api/dead-letters?limit=500")["letters"] as? [[String: Any]])
            #expect(
                others.filter { $0["value_null"] as? Bool == false }.count == 10,
                "the other letters' values are not null")
            let answer = try await console.post(
                "/api/redrive", #"{"letters":[{"partition":\#(shown["partition"]!),"offset":\#(shown["offset"]!)}]}"#)
            #expect(answer.status == 200, "\(answer.body)")
            let records = try await PythonKafkaClient.dump(
                ["push.unified"], bootstrap: console.bootstrap, expect: 1, timeout: 30)
            #expect(records.count == 1)
            #expect(records.first?.valueIsNull == true, "a null value, not an empty one")
            #expect(records.first?.keyBytes == Array("gone".utf8))
        }
    }

    @Test func aFailedWriteIsAnErrorAndTheSameRequestCanBeMadeAgain() async throws {
        try await Self.withConsole { console, _ in
            let page = try await console.json("/api/dead-letters?code=invalid_json&limit=1")
            let letter = try #require((page["letters"] as? [[String: Any]])?.first)
            let request = #"{"letters":[{"partition":\#(letter["partition"]!),"offset":\#(letter["offset"]!)}]}"#
            // The broker refuses the next produce request with an error that is fatal to an idempotent producer:
            // the request fails, and the next one is written by a new producer.
            try console.broker.pushRequestErrors(apiKey: 0, errors: [45])  // Produce, OUT_OF_ORDER_SEQUENCE_NUMBER
            let refused = try await console.post("/api/redrive", request)
            #expect(refused.status == 502, "\(refused.body)")
            #expect(refused.body.contains("writing to push.unified failed"), "\(refused.body)")
            let again = try await console.post("/api/redrive", request)
            #expect(again.status == 200, "\(again.body)")
            #expect(again.body.contains(#""written":1"#))
            let records = try await PythonKafkaClient.dump(
                ["push.unified"], bootstrap: console.bootstrap, expect: 1, timeout: 30)
            #expect(records.count == 1)
        }
    }

    /// Another site cannot use the API through an operator's browser, even on loopback without a token.
    @Test func requestsFromOtherSitesAreRefused() async throws {
        try await Self.withConsole { console, _ in
            let body = #"{"letters":[]}"#
            // A form or a "simple" fetch from another page cannot set application/json without asking first.
            #expect(try await console.post("/api/redrive", body, contentType: "text/plain;charset=UTF-8").status == 415)
            #expect(
                try await console.post("/api/redrive", body, contentType: "application/json; charset=utf-8").status
                    == 200)
            let foreign = "Origin: https://evil.example\r\n"
            #expect(try await console.get("/api/dead-letters", headers: foreign).status == 403)
            #expect(try await console.get("/api/dead-letters", headers: "Sec-Fetch-Site: cross-site\r\n").status == 403)
            #expect(try await console.get("/api/dead-letters", headers: "Origin: http://localhost\r\n").status == 200)
            #expect(
                try await console.get("/api/dead-letters", headers: "Sec-Fetch-Site: same-origin\r\n").status == 200)
            // Another name resolved to 127.0.0.1 (DNS rebinding): the page and the API refuse it.
            #expect(try await console.get("/", host: "evil.example:8081").status == 421)
            #expect(try await console.get("/api/live", host: "evil.example").status == 421)
            #expect(try await console.get("/api/live", host: "127.0.0.1:9").status == 200)
            // HEAD is GET without the body; other methods get 405 and the ones allowed.
            let head = try await console.get("/api/live", method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty)
            let delete = try await console.get("/api/dead-letters/0/0", method: "DELETE")
            #expect(delete.status == 405 && delete.headers.contains("Allow: GET, HEAD"))
            #expect(try await console.get("/api/redrive").headers.contains("Allow: POST"))
        }
    }

    /// An output topic the cluster does not have (a format no one deploys) does not stop the console from
    /// following the others: a record in push.apns naming the re-driven record is its outcome.
    @Test func followThroughWorksWhenAnOutputTopicIsMissing() async throws {
        try await Self.withConsole(extraOutputTopics: ["push.not.deployed"]) { console, now in
            let (letter, source) = try await Self.redriveAnInvalidJSONLetter(console)
            let outcome = try await Self.followedThrough(source, "apns", in: "push.apns", console, now: now)
            #expect(outcome["topic"] as? String == "push.apns")
            #expect(outcome["format"] as? String == "apns")
            #expect(outcome["value"] as? String == #"{"aps":{}}"#)
            // One letter's re-drives: only its own, with the output's value.
            let mine = try await console.json(
                "/api/redrives?partition=\(letter["partition"]!)&offset=\(letter["offset"]!)")
            let redrives = try #require(mine["redrives"] as? [[String: Any]])
            #expect(redrives.count == 1 && redrives.first?["source"] as? String == source)
            let outcomes = try #require(redrives.first?["outcomes"] as? [[String: Any]])
            #expect(outcomes.contains { $0["topic"] as? String == "push.apns" && $0["value"] as? String != nil })
            let none = try await console.json("/api/redrives?partition=0&offset=999999")
            #expect((none["redrives"] as? [Any])?.isEmpty == true)
            // From the n-th re-drive on, with the count of all: from the count, none.
            let all = try await console.json("/api/redrives")
            let total = try #require(all["total"] as? Int)
            #expect(total == (all["redrives"] as? [Any])?.count && total >= 1)
            let last = try await console.json("/api/redrives?from=\(total - 1)")
            #expect((last["redrives"] as? [[String: Any]])?.map { $0["source"] as? String } == [source])
            let later = try await console.json("/api/redrives?from=\(total)")
            #expect((later["redrives"] as? [Any])?.isEmpty == true && later["total"] as? Int == total)
            #expect(try await console.get("/api/redrives?from=-1").status == 400)
            #expect(try await console.get("/api/redrives?partition=0").status == 400)
            #expect(try await console.get("/api/redrives?partition=a&offset=1").status == 400)
        }
    }

    /// An output topic created after the console started is read from its beginning once the console finds
    /// it (every `partitionCheckInterval`): an output written there for a re-driven record is its outcome.
    @Test func anOutputTopicCreatedLaterIsFollowed() async throws {
        try await Self.withConsole(extraOutputTopics: ["push.late"]) { console, now in
            let (_, source) = try await Self.redriveAnInvalidJSONLetter(console)
            // Created now, as far as every client can tell.
            #expect(console.broker.perform(controlCommand: "topic-error push.late NO_ERROR") == "ok")
            let outcome = try await Self.followedThrough(source, "extra", in: "push.late", console, now: now)
            #expect(outcome["format"] as? String == "extra")
            #expect(outcome["value"] as? String == #"{"aps":{}}"#)
        }
    }

    /// Re-drives the first `invalid_json` letter: the letter and the `pushgate-source` of the record written.
    static func redriveAnInvalidJSONLetter(_ console: Console) async throws -> ([String: Any], String) {
        let page = try await console.json("/api/dead-letters?code=invalid_json&limit=1")
        let letter = try #require((page["letters"] as? [[String: Any]])?.first)
        let answer = try await console.post(
            "/api/redrive", #"{"letters":[{"partition":\#(letter["partition"]!),"offset":\#(letter["offset"]!)}]}"#)
        let written = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
        let source = try #require((written["records"] as? [[String: Any]])?.first?["source"] as? String)
        return (letter, source)
    }

    /// Writes what a worker would write for the re-driven record `source` to `topic` (with the independent
    /// client), and waits for the console to show it as the re-drive's outcome.
    static func followedThrough(
        _ source: String, _ format: String, in topic: String, _ console: Console, now: Int64
    ) async throws -> [String: Any] {
        try await PythonKafkaClient.produce(
            [
                PythonKafkaClient.Record(
                    key: nil, value: Array(#"{"aps":{}}"#.utf8),
                    headers: [("pushgate-format", Array(format.utf8)), ("pushgate-source", Array(source.utf8))],
                    timestamp: now)
            ], to: topic, bootstrap: console.bootstrap)
        return try await eventually(seconds: 30, "the output in \(topic) followed through") { () -> [String: Any]? in
            let list = try await console.json("/api/redrives")
            let redrive = (list["redrives"] as? [[String: Any]])?.first { $0["source"] as? String == source }
            // (The test's dead letters name made-up input offsets, which a re-driven record may share.)
            return (redrive?["outcomes"] as? [[String: Any]])?.first { $0["topic"] as? String == topic }
        }
    }
}
