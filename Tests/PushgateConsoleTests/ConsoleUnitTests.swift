import Foundation
import PushgateKafka
import PushgateTestSupport
import Testing

@testable import PushgateConsole
@testable import PushgateHTTP

@Suite("Console: token, listen address, follow-through, queries")
struct ConsoleUnitTests {
    @Test func aTokenIsComparedWholeAndOnlyAfterBearer() throws {
        let token = try BearerToken("  abc123\n")
        #expect(token.admits("Bearer abc123"))
        #expect(token.admits("bearer abc123"))
        #expect(!token.admits("Bearer abc12"))
        #expect(!token.admits("Bearer abc1234"))
        #expect(!token.admits("Bearer abc124"))
        #expect(!token.admits("Basic abc123"))
        #expect(!token.admits("abc123"))
        #expect(!token.admits(nil))
        #expect(throws: BearerTokenError.self) { try BearerToken(" \n") }
        #expect(throws: BearerTokenError.self) { try BearerToken("two words") }
        #expect(throws: BearerTokenError.self) { try BearerToken.read(path: "/nonexistent/token") }
    }

    @Test func onlyLoopbackMayGoWithoutAToken() {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"] {
            #expect(ListenAddressRule.isLoopback(host), "\(host)")
            #expect(ListenAddressRule.refusal(host: host, hasToken: false) == nil)
        }
        for host in ["0.0.0.0", "::", "10.0.0.5", "127.0.0.1.example.com", "example.com", "128.0.0.1"] {
            #expect(!ListenAddressRule.isLoopback(host), "\(host)")
            #expect(ListenAddressRule.refusal(host: host, hasToken: false)?.contains("--token-file") == true)
            #expect(ListenAddressRule.refusal(host: host, hasToken: true) == nil)
        }
    }

    /// The built `pushgate` beside the test bundle refuses a non-loopback --host without a token: exit 64.
    @Test(arguments: ["console", "playground"])
    func aNonLoopbackHostWithoutATokenExits64(command: String) throws {
        let path = try #require(PushgateBinary.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [command, "--host", "0.0.0.0", "--port", "0"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(message.contains("--host 0.0.0.0 is not loopback: give --token-file"))
    }

    static func output(_ topic: String, offset: Int64, source: String, format: String) -> KafkaConsumerMessage {
        KafkaConsumerMessage(
            topic: topic, partition: 0, offset: offset, key: nil, value: Array("{\"n\":\(offset)}".utf8),
            headers: [
                KafkaHeader(name: "pushgate-format", value: Array(format.utf8)),
                KafkaHeader(name: "pushgate-source", value: Array(source.utf8)),
            ])
    }

    @Test func followThroughKeepsWhatCameBeforeTheWatchAndCountsARecordOnce() {
        let follow = FollowThrough(recentLimit: 2)
        follow.addOutput(Self.output("push.apns", offset: 0, source: "in:0:1", format: "apns"))
        #expect(follow.outcomes(of: "in:0:1") == nil)
        follow.watch("in:0:1")
        #expect(follow.outcomes(of: "in:0:1")?.map(\.offset) == [0])
        follow.addOutput(Self.output("push.apns", offset: 0, source: "in:0:1", format: "apns"))
        follow.addOutput(Self.output("push.fcm", offset: 3, source: "in:0:1", format: "fcm"))
        #expect(follow.outcomes(of: "in:0:1")?.map(\.format) == ["apns", "fcm"])
        // Unwatched sources: only the newest two are kept.
        for offset in 1...3 {
            follow.addOutput(Self.output("push.apns", offset: Int64(offset), source: "in:1:\(offset)", format: "apns"))
        }
        follow.watch("in:1:1")
        follow.watch("in:1:3")
        #expect(follow.outcomes(of: "in:1:1") == [])
        #expect(follow.outcomes(of: "in:1:3")?.count == 1)
        // An output without pushgate-source is no one's.
        follow.addOutput(KafkaConsumerMessage(topic: "push.apns", partition: 0, offset: 9, key: nil, value: []))
        #expect(follow.outcomes(of: "in:0:1")?.count == 2)
    }

    /// Partitions found after reading started are added from their offsets, once; those already read
    /// keep their place; their records were not there at the start.
    @Test func partitionsFoundLaterAreAddedOnceAndWereNotThereAtTheStart() {
        let next = NextOffsets()
        let first = KafkaTopicPartition(topic: "push.dlq", partition: 0)
        next.start(at: [first: 0], ends: [first: 5])
        next.passed(first, 3)
        let second = KafkaTopicPartition(topic: "push.dlq", partition: 1)
        let late = KafkaTopicPartition(topic: "push.late", partition: 0)
        #expect(next.add(unknown: [first: 0, late: 2, second: 0]) == [second, late])
        #expect(next.add(unknown: [first: 0, second: 7, late: 9]).isEmpty)
        let shares = next.shares(1).first ?? []
        #expect(shares.map(\.topicPartition) == [first, second, late])
        #expect(shares.map(\.offset) == [4, 0, 2])
        #expect(next.passed(first, 4))
        #expect(!next.passed(second, 0))
        #expect(!next.passed(late, 2))
    }

    /// Only the newest outputs keep their values, within a count and a byte limit; older ones keep their
    /// place and format, and a dead letter never holds its value.
    @Test func followThroughKeepsOnlyTheNewestValues() {
        let follow = FollowThrough(recentLimit: 10, valueLimit: 2, valueByteLimit: 1_000)
        follow.watch("in:0:1")
        for offset in 0..<3 {
            follow.addOutput(Self.output("push.apns", offset: Int64(offset), source: "in:0:1", format: "apns"))
        }
        follow.addDeadLetter(
            topic: "push.dlq", partition: 0, offset: 7, source: "in:0:1", stage: "validate", format: nil)
        let outcomes = follow.outcomes(of: "in:0:1") ?? []
        #expect(outcomes.map(\.offset) == [0, 1, 2, 7])
        #expect(
            outcomes.map { $0.value.map { String(decoding: $0, as: UTF8.self) } } == [
                nil, #"{"n":1}"#, #"{"n":2}"#, nil,
            ])
        // An unwatched source's output counts too, and keeps its value once watched.
        follow.addOutput(Self.output("push.fcm", offset: 3, source: "in:0:2", format: "fcm"))
        follow.watch("in:0:2")
        #expect(follow.outcomes(of: "in:0:2")?.first?.value == Array(#"{"n":3}"#.utf8))
        #expect(follow.outcomes(of: "in:0:1")?.compactMap(\.value).count == 1)
        // The byte limit: a value larger than it is let go at once.
        let small = FollowThrough(valueByteLimit: 10)
        small.watch("in:0:1")
        small.addOutput(Self.output("push.apns", offset: 12_345_678, source: "in:0:1", format: "apns"))
        #expect(small.outcomes(of: "in:0:1")?.first?.value == nil)
        #expect(small.outcomes(of: "in:0:1")?.first?.format == "apns")
    }

    /// `console.html` with every part in place: the playground's editor and previews, and the console's own.
    @Test func theConsolePageHasEveryPart() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/PushgateConsole/Resources/console")
        let playground = root.appendingPathComponent("Sources/PushgateHTTP/Resources/playground")
        let page = String(decoding: try ConsoleResources.load().page, as: UTF8.self)
        #expect(page.hasPrefix("<!doctype html>\n"))
        #expect(!page.contains("{{"))
        let template = try String(contentsOf: folder.appendingPathComponent("console.html"), encoding: .utf8)
        let parts = template.split(separator: "{{").dropFirst().map { String($0.prefix { $0 != "}" }) }
        #expect(Set(parts).isSuperset(of: ["playground.js", "pointer.js", "api.js", "console.js", "console.css"]))
        #expect(
            page.contains(
                String(decoding: PlaygroundPage.withoutFinalNewline(PlaygroundPage.formatsScript), as: UTF8.self)))
        for part in parts where part != PlaygroundPage.formatsPart {
            let own = part.hasPrefix("console.")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(part).path) == own, "\(part)")
            var text = try String(
                contentsOf: (own ? folder : playground).appendingPathComponent(part), encoding: .utf8)
            text.removeLast()
            #expect(page.contains(text), "\(part) is in the page")
        }
        // The playground's script leaves the editor empty in the console (no example is loaded).
        #expect(page.contains("window.pushgateConsole = true;"))
    }

    @Test func queryStringsAreDecoded() throws {
        let items = DeadLetterQueryItems.decode("/api/dead-letters?q=a+b%22c&key=&code=x&code=y&partition=3")
        #expect(items["q"] == "a b\"c")
        #expect(items["key"] == "")
        #expect(items["code"] == "y")
        let query = try DeadLetterQuery(queryItems: items)
        #expect(query.sourcePartition == 3)
        #expect(query.key == "")
        #expect(throws: DeadLetterQueryError.self) { try DeadLetterQuery(queryItems: ["from_ms": "soon"]) }
    }

    static func letter(partition: Int32, offset: Int64, at timestamp: Int64?, value: String = "{}")
        -> KafkaConsumerMessage
    {
        KafkaConsumerMessage(
            topic: "push.dlq", partition: partition, offset: offset, key: nil, value: Array(value.utf8),
            timestampMs: timestamp)
    }

    @Test func newestFirstIsByTimeAndACursorHoldsItsPlaceWhileLettersArrive() throws {
        let index = DeadLetterIndex()
        // Read partition by partition, as a reader starting late does: times interleave across partitions.
        for (partition, times) in [(0, [10, 30, 50]), (1, [20, 40, 60])] {
            for (offset, time) in times.enumerated() {
                index.add(Self.letter(partition: Int32(partition), offset: Int64(offset), at: Int64(time)))
            }
        }
        index.add(Self.letter(partition: 2, offset: 0, at: nil))
        func times(_ page: DeadLetterIndex.Page) -> [Int64?] { page.letters.map(\.timestampMs) }
        let first = index.page(DeadLetterQuery(), limit: 3, after: nil)
        #expect(times(first) == [60, 50, 40])
        #expect(first.cursor?.description == "40:1:1")
        // A newer and an older letter arrive: the next page neither repeats nor skips.
        index.add(Self.letter(partition: 0, offset: 3, at: 70))
        index.add(Self.letter(partition: 1, offset: 3, at: 35))
        let second = index.page(DeadLetterQuery(), limit: 3, after: first.cursor)
        #expect(times(second) == [35, 30, 20])
        let third = index.page(DeadLetterQuery(), limit: 3, after: second.cursor)
        #expect(times(third) == [10, nil])
        #expect(third.cursor == nil)
        #expect(DeadLetterIndex.Cursor("40:1:1") == first.cursor)
        #expect(DeadLetterIndex.Cursor("40:1") == nil)
        // Oldest first for a bulk re-drive.
        #expect(index.all(matching: DeadLetterQuery()).map(\.timestampMs) == [nil, 10, 20, 30, 35, 40, 50, 60, 70])
    }

    @Test func textSearchFindsBytesAnywhere() {
        func contains(_ value: String, _ needle: String) -> Bool {
            Array(value.utf8).withUnsafeBytes { DeadLetterQuery.Matcher.contains($0, Array(needle.utf8)) }
        }
        let values = ["", "a", "needle", "xxneedlexx", "needl", "nneedle", "aaaaaaaaaaneedle", "é needle é"]
        #expect(values.indices.filter { contains(values[$0], "needle") } == [2, 3, 5, 6, 7])
        #expect(values.indices.filter { contains(values[$0], "é n") } == [7])
        #expect(contains("anything", ""))
    }

    @Test func aValueShownCutIsBinaryOnlyWhenItsStartIsNotText() {
        // "aé" + "é": the cut after four bytes splits the second "é", which is still text.
        let cut = DeadLetter(Self.letter(partition: 0, offset: 0, at: 1, value: "aéé"), keep: 4)
        #expect(cut.valueIsCut)
        #expect(!cut.valueIsBinary)
        let binary = KafkaConsumerMessage(
            topic: "push.dlq", partition: 0, offset: 1, key: nil, value: [0xFF, 0xFE, 0x41, 0x42, 0x43])
        #expect(DeadLetter(binary, keep: 4).valueIsBinary)
        #expect(DeadLetter(binary).valueIsBinary)
        #expect(!DeadLetter(Self.letter(partition: 0, offset: 2, at: 1, value: "abc")).valueIsBinary)
    }
}
