import Foundation
import NIOHTTP1
import PushgateHTTP
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
    /// Reads whole letters back from Kafka.
    public let letters: LetterReader
    /// The text searches (`q`).
    public let search: TextSearch
    /// The re-driver.
    public let redriver: Redriver
    /// What became of re-driven records.
    public let followThrough: FollowThrough
    /// The live view of the cluster.
    public let watch: ClusterWatch
    /// What the page is told of the console's settings.
    let config: ConsoleWire.Config

    /// The most letters one page holds, and the default.
    public static let maxLimit = 500
    static let defaultLimit = 50
    /// How long a request with `q` waits for its search to be done before it answers what it has.
    static let searchWait: Duration = .seconds(2)

    /// The largest request body: the playground's.
    public var maxRequestBytes: Int { playground.maxRequestBytes }
    /// The playground's 413.
    public var tooLarge: HTTPResponse { playground.tooLarge }

    /// Creates the routes.
    public init(
        page: [UInt8], playground: PlaygroundRoutes, index: DeadLetterIndex, letters: LetterReader,
        search: TextSearch, redriver: Redriver, followThrough: FollowThrough, watch: ClusterWatch,
        settings: ConsoleSettings
    ) {
        self.page = page
        self.playground = playground
        self.index = index
        self.letters = letters
        self.search = search
        self.redriver = redriver
        self.followThrough = followThrough
        self.watch = watch
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
            return await deadLetters(uri)
        case (.GET, "/api/dead-letter-ids"):
            return await ids(uri)
        case (.GET, _) where isLetter:
            let numbers = Array(parts.suffix(2))
            guard let partition = Int32(numbers[0]), let offset = Int64(numbers[1]) else {
                return .text(.badRequest, "use /api/dead-letters/PARTITION/OFFSET\n")
            }
            return await letter(partition: partition, offset: offset)
        case (.POST, "/api/redrive"):
            return await redrive(body)
        case (.GET, "/api/redrives"):
            return await redrives(uri)
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
