import Foundation
import NIOHTTP1
import PushgateKafka

/// What `pushgate console` answers: its page, the playground's `/api/examples` and `/api/translate`,
/// and the dead-letter API (docs/console.md): `GET /api/dead-letters`, `GET /api/dead-letters/P/O`,
/// `GET /api/dead-letter-ids`, `POST /api/redrive`, `GET /api/redrives`, `GET /api/live` and
/// `GET /api/config`.
public struct ConsoleRoutes: HTTPRoutes {
    /// The console's page.
    public let page: [UInt8]
    /// The playground's routes, for translation and the examples.
    public let playground: PlaygroundRoutes
    /// The dead letters read.
    public let index: DeadLetterIndex
    /// The re-driver.
    public let redriver: Redriver
    /// What became of re-driven records.
    public let followThrough: FollowThrough
    /// The live view of the cluster.
    public let watch: ClusterWatch
    /// What the page is told of the console's settings.
    let config: ConsoleWire.Config
    /// How to read a whole letter again when the console keeps it cut.
    let reader: KafkaConsumerConfiguration

    /// The most letters one page holds, and the default.
    public static let maxLimit = 500
    static let defaultLimit = 50

    /// The largest request body: the playground's.
    public var maxRequestBytes: Int { playground.maxRequestBytes }
    /// The playground's 413.
    public var tooLarge: HTTPResponse { playground.tooLarge }

    /// Creates the routes.
    public init(
        page: [UInt8], playground: PlaygroundRoutes, index: DeadLetterIndex, redriver: Redriver,
        followThrough: FollowThrough, watch: ClusterWatch, settings: ConsoleSettings
    ) {
        self.page = page
        self.playground = playground
        self.index = index
        self.redriver = redriver
        self.followThrough = followThrough
        self.watch = watch
        self.reader = settings.reader
        config = ConsoleWire.Config(
            inputTopic: settings.inputTopic, deadLetterTopic: settings.deadLetterTopic,
            topics: Dictionary(settings.outputTopics.map { ($0.format, $0.topic) }) { first, _ in first },
            groupId: settings.groupId, androidFormats: settings.androidFormats, lenient: settings.lenient,
            bootstrapServers: settings.bootstrapServers, embeddedBroker: settings.embeddedBroker,
            maxPayloadBytes: playground.maxPayloadBytes)
    }

    /// The answer to one request.
    public func respond(method: HTTPMethod, uri: String, headers: HTTPHeaders, body: [UInt8]) async -> HTTPResponse {
        let path = Self.path(of: uri)
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let isLetter = parts.count == 4 && parts.first == "api" && parts.dropFirst().first == "dead-letters"
        switch (method, path) {
        case (.GET, "/"), (.GET, "/index.html"):
            return HTTPResponse(status: .ok, contentType: "text/html; charset=utf-8", body: page)
        case (_, "/api/examples"), (_, "/api/translate"):
            return await playground.respond(method: method, uri: uri, headers: headers, body: body)
        case (.GET, "/api/config"):
            return .json(ConsoleWire.encode(config))
        case (.GET, "/api/dead-letters"):
            return deadLetters(uri)
        case (.GET, "/api/dead-letter-ids"):
            return ids(uri)
        case (.GET, _) where isLetter:
            let numbers = Array(parts.suffix(2))
            guard let partition = Int32(numbers[0]), let offset = Int64(numbers[1]) else {
                return .text(.badRequest, "use /api/dead-letters/PARTITION/OFFSET\n")
            }
            return await letter(partition: partition, offset: offset)
        case (.POST, "/api/redrive"):
            return await redrive(body)
        case (.GET, "/api/redrives"):
            return .json(ConsoleWire.encode(ConsoleWire.RedriveList(redrives: redriver.written.map(describe))))
        case (.GET, "/api/live"):
            return live()
        case (_, "/"), (_, "/index.html"), (_, "/api/config"), (_, "/api/dead-letters"), (_, "/api/dead-letter-ids"),
            (_, "/api/redrives"), (_, "/api/live"):
            return Self.methodNotAllowed(allow: "GET, HEAD")
        case (_, _) where isLetter:
            return Self.methodNotAllowed(allow: "GET, HEAD")
        case (_, "/api/redrive"):
            return Self.methodNotAllowed(allow: "POST")
        default:
            return .text(.notFound, "not found: see docs/console.md for the console's API\n")
        }
    }

    /// 405 with the methods the path takes.
    static func methodNotAllowed(allow: String) -> HTTPResponse {
        var response = HTTPResponse.text(.methodNotAllowed, "use \(allow)\n")
        response.headers.append(("Allow", allow))
        return response
    }

    private func deadLetters(_ uri: String) -> HTTPResponse {
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
        let page = index.page(query, limit: limit, after: cursor)
        var redrives: [String: Int] = [:]
        for written in redriver.written {
            redrives["\(written.letterPartition)/\(written.letterOffset)", default: 0] += 1
        }
        return .json(
            ConsoleWire.encode(
                ConsoleWire.Page(
                    letters: page.letters.map { letter in
                        var shown = ConsoleWire.Letter(letter, valueLimit: ConsoleWire.listedValueBytes)
                        shown.redriven = redrives["\(letter.partition)/\(letter.offset)"] ?? 0
                        return shown
                    },
                    counts: page.counts, stageCounts: page.stageCounts, matching: page.matching, total: page.total,
                    cursor: page.cursor?.description)))
    }

    private func ids(_ uri: String) -> HTTPResponse {
        do {
            let query = try DeadLetterQuery(queryItems: DeadLetterQuery.items(of: uri))
            let ids = index.all(matching: query).map { [Int64($0.partition), $0.offset] }
            return .json(ConsoleWire.encode(ConsoleWire.Ids(ids: ids)))
        } catch {
            return .text(.badRequest, error.description + "\n")
        }
    }

    private func letter(partition: Int32, offset: Int64) async -> HTTPResponse {
        guard var letter = index.letter(partition: partition, offset: offset) else {
            return .text(.notFound, "no dead letter at partition \(partition) offset \(offset)\n")
        }
        if letter.valueIsCut {
            if let whole = try? await RecordReader.read(
                topic: config.deadLetterTopic, partition: partition, offset: offset, consumer: reader,
                logger: .init(label: "pushgate.console"))
            {
                letter.value = whole.value
            }
        }
        let redrives = redriver.written.filter { $0.letterPartition == partition && $0.letterOffset == offset }
        return .json(
            ConsoleWire.encode(
                ConsoleWire.LetterAnswer(
                    letter: {
                        var shown = ConsoleWire.Letter(letter, valueLimit: .max)
                        shown.redriven = redrives.count
                        return shown
                    }(), redrives: redrives.map(describe))))
    }

    private func redrive(_ body: [UInt8]) async -> HTTPResponse {
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
                    ConsoleWire.RedriveAnswer(written: written.filter(\.isNew).count, records: written.map(describe))))
        } catch {
            return .text(HTTPResponseStatus(statusCode: error.status), error.message + "\n")
        }
    }

    private func describe(_ written: Redriver.Written) -> ConsoleWire.Redrive {
        ConsoleWire.Redrive(
            letter: ConsoleWire.LetterRef(partition: written.letterPartition, offset: written.letterOffset),
            partition: written.partition, offset: written.offset, source: written.source,
            unchanged: written.unchanged, new: written.isNew,
            outcomes: (followThrough.outcomes(of: written.source) ?? []).map(ConsoleWire.Outcome.init))
    }

    private func live() -> HTTPResponse {
        let status = watch.status
        return .json(
            ConsoleWire.encode(
                ConsoleWire.Live(
                    connected: status.connected, error: status.error, lastSeenMs: status.lastSeenMs,
                    group: config.groupId,
                    topics: status.topics.map {
                        .init(topic: $0.topic, role: $0.role, end: $0.end, perSecond: $0.perSecond)
                    },
                    lag: status.lag.map {
                        .init(partition: $0.partition, committed: $0.committed, end: $0.end, lag: $0.lag)
                    },
                    totalLag: status.lag.reduce(0) { $0 + $1.lag }, deadLetters: index.count)))
    }
}
