import Foundation
import PushgateKafka
import Testing

@testable import PushgateConsole
@testable import PushgateHTTP

@Suite("Console: the dead-letter index's summaries, counts and filters; the pushgate-errors scanner")
struct DeadLetterIndexTests {
    static func letter(
        partition: Int32, offset: Int64, at timestamp: Int64?, key: String? = nil, errors: String?,
        stage: String = "validate", source: (String, Int32, Int64)? = nil, format: String? = nil
    ) -> KafkaConsumerMessage {
        var headers = [KafkaHeader(name: "trace", value: Array("t".utf8))]
        if let source {
            headers += [
                KafkaHeader(name: "__connect.errors.topic", value: Array(source.0.utf8)),
                KafkaHeader(name: "__connect.errors.partition", value: Array(String(source.1).utf8)),
                KafkaHeader(name: "__connect.errors.offset", value: Array(String(source.2).utf8)),
            ]
        }
        headers.append(KafkaHeader(name: "__connect.errors.stage", value: Array(stage.utf8)))
        if let format { headers.append(KafkaHeader(name: "pushgate-format", value: Array(format.utf8))) }
        if let errors { headers.append(KafkaHeader(name: "pushgate-errors", value: Array(errors.utf8))) }
        return KafkaConsumerMessage(
            topic: "push.dlq", partition: partition, offset: offset, key: key.map { Array($0.utf8) },
            value: Array("{}".utf8), headers: headers, timestampMs: timestamp)
    }

    static func problems(_ codes: String...) -> String {
        "[" + codes.map { #"{"code":"\#($0)","path":"/a","message":"m"}"# }.joined(separator: ",") + "]"
    }

    @Test func theScannerReadsCodesOnlyFromAListOfProblems() {
        func codes(_ text: String) -> [String]? {
            Array(text.utf8).withUnsafeBytes { ProblemCodeScanner.codes($0) }
        }
        #expect(codes(Self.problems("a", "b", "a")) == ["a", "b", "a"])
        #expect(codes(" [ ] ") == [])
        #expect(codes(#"[{"path":"","message":"x","extra":[1,{"y":null}],"code":"c\u00e9\"\n"}]"#) == ["cé\"\n"])
        #expect(codes(#"[{"code":"a","path":"/"}]"#) == nil, "no message")
        #expect(codes(#"[{"code":1,"path":"/","message":"m"}]"#) == nil, "a code that is not text")
        #expect(codes(#"[{"code":"a","path":"/","message":"m"}] x"#) == nil, "text after the list")
        #expect(codes(#"{"code":"a"}"#) == nil)
        #expect(codes("not json") == nil)
        #expect(codes(#"[{"code":"a","path":"/","message":"m","n":-1.5e+3,"t":true}]"#) == ["a"])
        #expect(codes(#"[{"code":"a","path":"/","message":"m","n":01x}]"#) == nil)
    }

    @Test func countsAndFiltersWorkOnTheSummaries() throws {
        let index = DeadLetterIndex()
        index.add(
            Self.letter(
                partition: 0, offset: 0, at: 10, key: "k1", errors: Self.problems("unknown_field", "invalid_url"),
                source: ("in", 1, 5)))
        index.add(Self.letter(partition: 0, offset: 1, at: 20, key: "k2", errors: Self.problems("invalid_url")))
        index.add(
            Self.letter(
                partition: 1, offset: 0, at: 30, key: "k1", errors: Self.problems("invalid_json"), stage: "parse",
                source: ("in", 2, 7)))
        index.add(Self.letter(partition: 1, offset: 1, at: nil, errors: "not pushgate's"))
        index.add(Self.letter(partition: 1, offset: 1, at: 99, errors: nil))  // read again: ignored
        #expect(index.count == 4)
        let all = index.page(DeadLetterQuery(), limit: 10, after: nil)
        #expect(all.counts == ["unknown_field": 1, "invalid_url": 2, "invalid_json": 1])
        #expect(all.stageCounts == ["validate": 2, "parse": 1, "none": 1])
        #expect(all.letters.map(\.timestampMs) == [30, 20, 10, nil])
        #expect(index.letter(partition: 1, offset: 1)?.writtenByPushgate == false)
        #expect(index.letter(partition: 0, offset: 1)?.writtenByPushgate == true)
        func matching(_ items: [String: String]) throws -> [String] {
            let page = index.page(try DeadLetterQuery(queryItems: items), limit: 10, after: nil)
            #expect(page.matching == page.letters.count)
            return page.letters.map { "\($0.partition)/\($0.offset)" }
        }
        #expect(try matching(["code": "invalid_url"]) == ["0/1", "0/0"])
        #expect(try matching(["code": "no_such_code"]) == [])
        #expect(try matching(["stage": "parse"]) == ["1/0"])
        #expect(try matching(["stage": "none"]) == ["1/1"])
        #expect(try matching(["key": "k1"]) == ["1/0", "0/0"])
        #expect(try matching(["key": ""]) == [])
        #expect(try matching(["topic": "in"]) == ["1/0", "0/0"])
        #expect(try matching(["topic": "in", "partition": "2"]) == ["1/0"])
        #expect(try matching(["partition": "1"]) == ["0/0"])
        #expect(try matching(["from_ms": "15", "to_ms": "30"]) == ["0/1"])
        // A time range bounds the counts; the other filters do not.
        let ranged = index.page(try DeadLetterQuery(queryItems: ["from_ms": "15", "code": "x"]), limit: 1, after: nil)
        #expect(ranged.counts == ["invalid_url": 1, "invalid_json": 1])
        #expect(ranged.matching == 0)
    }

    @Test func textSearchAnswersOnlyTheLettersItFound() throws {
        let index = DeadLetterIndex()
        for offset in 0..<3 { index.add(Self.letter(partition: 0, offset: Int64(offset), at: 1, errors: "[]")) }
        var found = TextSearch.Found()
        found.insert(try #require(index.row(partition: 0, offset: 2)))
        let query = try DeadLetterQuery(queryItems: ["q": "x"])
        #expect(index.all(matching: query, found: found).map(\.offset) == [2])
        #expect(index.all(matching: query, found: nil).isEmpty)
        #expect(index.all(matching: DeadLetterQuery(), found: found).count == 3)
    }

    @Test func aCodeBeyondTheBitsIsCountedAndFiltered() throws {
        let index = DeadLetterIndex()
        for code in 0..<70 {
            index.add(Self.letter(partition: 0, offset: Int64(code), at: 1, errors: Self.problems("code-\(code)")))
        }
        let page = index.page(try DeadLetterQuery(queryItems: ["code": "code-68"]), limit: 5, after: nil)
        #expect(page.counts.count == 70)
        #expect(page.counts["code-68"] == 1)
        #expect(page.letters.map(\.offset) == [68])
    }
    static func summary(offset: Int64) -> DeadLetterSummary {
        DeadLetterSummary(
            partition: 0, offset: offset, timestampMs: offset, codeBits: 0, key: nil, valueBytes: 0, source: nil,
            stage: 0, format: 0, writtenByPushgate: false)
    }

    /// Rows read back across chunk boundaries.
    @Test func summaryChunksKeepEveryRow() {
        var chunks = SummaryChunks()
        let count = 2 * SummaryChunks.chunkSize + 3
        for row in 0..<count { chunks.append(Self.summary(offset: Int64(row))) }
        #expect(chunks.count == count)
        #expect(chunks.chunkAddresses.count == 3)
        let size = SummaryChunks.chunkSize
        for row in [0, size - 1, size, 2 * size - 1, 2 * size, count - 1] {
            #expect(chunks[row].offset == Int64(row))
        }
    }

    /// A copy (a query's snapshot) shares every chunk; a row added afterwards copies the last chunk only,
    /// and the copy keeps what it had.
    @Test func aRowAddedDuringASnapshotCopiesOnlyTheLastChunk() {
        var chunks = SummaryChunks()
        let count = 3 * SummaryChunks.chunkSize + 10
        for row in 0..<count { chunks.append(Self.summary(offset: Int64(row))) }
        let snapshot = chunks
        #expect(snapshot.chunkAddresses == chunks.chunkAddresses)
        chunks.append(Self.summary(offset: Int64(count)))
        let (before, after) = (snapshot.chunkAddresses, chunks.chunkAddresses)
        #expect(after.count == 4)
        #expect(Array(after.prefix(3)) == Array(before.prefix(3)), "the full chunks are still shared")
        #expect(after[3] != before[3], "the last chunk was copied")
        #expect(snapshot.count == count)
        #expect(chunks.count == count + 1)
        #expect(chunks[count].offset == Int64(count))
        #expect(snapshot[count - 1].offset == Int64(count - 1))
    }
}
