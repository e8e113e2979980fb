import Foundation
import NIOHTTP1
import PushgateHTTP
import PushgateKafka

/// The dead-letter answers: lists and counts from the index, letters read back from Kafka, re-drives.
extension ConsoleRoutes {
    func deadLetters(_ uri: String) async -> HTTPResponse {
        let items = DeadLetterQuery.items(of: uri)
        let query: DeadLetterQuery
        do {
            query = try DeadLetterQuery(queryItems: items)
        } catch {
            return .text(.badRequest, error.description + "\n")
        }
        var limit = Self.defaultLimit
        if let text = items["limit"], !text.isEmpty {
            guard let value = Int(text), value > 0 else {
                return .text(.badRequest, "limit must be a positive integer\n")
            }
            limit = min(value, Self.maxLimit)
        }
        var cursor: DeadLetterIndex.Cursor?
        if let text = items["cursor"], !text.isEmpty {
            guard let value = DeadLetterIndex.Cursor(text) else {
                return .text(.badRequest, "cursor must be what a page answered\n")
            }
            cursor = value
        }
        let progress = await searchProgress(query)
        let page = index.page(query, limit: limit, after: cursor, found: progress?.found)
        let places = page.letters.map { LetterReader.Place(partition: $0.partition, offset: $0.offset) }
        let read = await letters.read(places)
        guard read.count == places.count else {
            return .text(
                .serviceUnavailable,
                "cannot read \(places.count - read.count) of the page's letters back from Kafka; try again\n")
        }
        var redrives: [LetterReader.Place: Int] = [:]
        for written in redriver.written {
            redrives[
                LetterReader.Place(partition: written.letterPartition, offset: written.letterOffset), default: 0] +=
                1
        }
        let shown = places.compactMap { place -> ConsoleWire.Letter? in
            guard let record = read[place] else { return nil }
            var shown = ConsoleWire.Letter(DeadLetter(record), valueLimit: ConsoleWire.listedValueBytes)
            shown.redriven = redrives[place] ?? 0
            return shown
        }
        return .json(
            ConsoleWire.encode(
                ConsoleWire.Page(
                    letters: shown, counts: page.counts, stageCounts: page.stageCounts, matching: page.matching,
                    total: page.total, cursor: page.cursor?.description, search: progress.map(ConsoleWire.Search.init)))
        )
    }

    /// The search for `q`, started or followed, after waiting a little for it; `nil` without `q`.
    private func searchProgress(_ query: DeadLetterQuery) async -> TextSearch.Progress? {
        guard let text = query.text else { return nil }
        return await search.progress(of: Array(text.utf8), wait: Self.searchWait)
    }

    func ids(_ uri: String) async -> HTTPResponse {
        do {
            let query = try DeadLetterQuery(queryItems: DeadLetterQuery.items(of: uri))
            let progress = await searchProgress(query)
            let ids = index.all(matching: query, found: progress?.found).map { [Int64($0.partition), $0.offset] }
            return .json(ConsoleWire.encode(ConsoleWire.Ids(ids: ids, search: progress.map(ConsoleWire.Search.init))))
        } catch {
            return .text(.badRequest, error.description + "\n")
        }
    }

    func letter(partition: Int32, offset: Int64) async -> HTTPResponse {
        guard index.letter(partition: partition, offset: offset) != nil else {
            return .text(.notFound, "no dead letter at partition \(partition) offset \(offset)\n")
        }
        guard let record = await letters.read(partition: partition, offset: offset) else {
            return .text(
                .serviceUnavailable, "cannot read the dead letter at partition \(partition) offset \(offset) back\n")
        }
        let redrives = redriver.written.filter { $0.letterPartition == partition && $0.letterOffset == offset }
        var shown = ConsoleWire.Letter(DeadLetter(record), valueLimit: .max)
        shown.redriven = redrives.count
        return .json(ConsoleWire.encode(ConsoleWire.LetterAnswer(letter: shown, redrives: await describe(redrives))))
    }

    func redrive(_ body: [UInt8]) async -> HTTPResponse {
        let request: ConsoleWire.RedriveBody
        do {
            request = try JSONDecoder().decode(ConsoleWire.RedriveBody.self, from: Data(body))
        } catch {
            return .text(
                .badRequest,
                "expected {\"letters\":[{\"partition\":P,\"offset\":O,\"payload\":TEXT (optional)}]}: \(error)\n")
        }
        do {
            let written = try await redriver.redrive(
                request.letters.map {
                    Redriver.Request(
                        partition: $0.partition, offset: $0.offset, payload: $0.payload.map { Array($0.utf8) })
                })
            return .json(
                ConsoleWire.encode(
                    ConsoleWire.RedriveAnswer(written: written.filter(\.isNew).count, records: await describe(written)))
            )
        } catch {
            return .text(HTTPResponseStatus(statusCode: error.status), error.message + "\n")
        }
    }

    /// `GET /api/redrives`: every re-drive, or those from the `from`-th on, or with `partition` and
    /// `offset` those of one letter (with its dead letters' errors read back).
    func redrives(_ uri: String) async -> HTTPResponse {
        let items = DeadLetterQuery.items(of: uri)
        let partition = items["partition"].flatMap { $0.isEmpty ? nil : $0 }
        let offset = items["offset"].flatMap { $0.isEmpty ? nil : $0 }
        guard (partition == nil) == (offset == nil) else {
            return .text(.badRequest, "give both partition and offset (a letter's), or neither\n")
        }
        var from = 0
        if let text = items["from"], !text.isEmpty {
            guard let value = Int(text), value >= 0 else {
                return .text(.badRequest, "from must be a non-negative integer\n")
            }
            from = value
        }
        let written = redriver.written
        let since = written.dropFirst(from)
        guard let partition, let offset else {
            let all = await describe(Array(since), readingErrors: false)
            return .json(ConsoleWire.encode(ConsoleWire.RedriveList(redrives: all, total: written.count)))
        }
        guard let partition = Int32(partition), let offset = Int64(offset) else {
            return .text(.badRequest, "partition and offset must be integers\n")
        }
        let mine = since.filter { $0.letterPartition == partition && $0.letterOffset == offset }
        return .json(
            ConsoleWire.encode(ConsoleWire.RedriveList(redrives: await describe(mine), total: written.count)))
    }

    /// The re-drives as the API shows them, each with its outcomes; when `readingErrors`, a dead letter
    /// among the outcomes gets its errors read back with it (the index keeps none): for a few re-drives
    /// (a letter's, a request's), not for every re-drive of the console.
    func describe(_ written: [Redriver.Written], readingErrors: Bool = true) async -> [ConsoleWire.Redrive] {
        let outcomes = written.map { followThrough.outcomes(of: $0.source) ?? [] }
        let places =
            readingErrors
            ? outcomes.flatMap {
                $0.filter(\.isDeadLetter).map { LetterReader.Place(partition: $0.partition, offset: $0.offset) }
            } : []
        let read = places.isEmpty ? [:] : await letters.read(places)
        return zip(written, outcomes).map { written, outcomes in
            ConsoleWire.Redrive(
                letter: ConsoleWire.LetterRef(partition: written.letterPartition, offset: written.letterOffset),
                partition: written.partition, offset: written.offset, source: written.source,
                unchanged: written.unchanged, new: written.isNew,
                outcomes: outcomes.map { outcome in
                    var outcome = outcome
                    if outcome.isDeadLetter,
                        let record = read[LetterReader.Place(partition: outcome.partition, offset: outcome.offset)]
                    {
                        outcome.errors = DeadLetter(record, keep: 0).errors
                    }
                    return ConsoleWire.Outcome(outcome)
                })
        }
    }
}
