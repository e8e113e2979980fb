import Foundation
import NIOHTTP1
import PushModel
import PushTranslation

/// What `pushgate playground` answers: `GET /` (the page), `GET /api/examples` (the example payloads)
/// and `POST /api/translate` (the records `pushgate translate` would write, as a JSON array).
public struct PlaygroundRoutes: HTTPRoutes {
    /// One answer.
    public typealias Response = HTTPResponse

    /// The largest payload translated, in bytes (`--max-payload-bytes`); larger is a `too_large` dead letter.
    public let maxPayloadBytes: Int
    /// The page and the examples.
    public let resources: PlaygroundResources
    /// Room for the request's JSON around the payload, in bytes: escapes, the record and the options.
    public static let envelopeBytes = 64 * 1024

    /// The largest request body read, in bytes: the payload limit plus ``envelopeBytes``; larger gets 413.
    public var maxRequestBytes: Int { maxPayloadBytes + Self.envelopeBytes }

    /// Creates the routes.
    /// - Parameters:
    ///   - maxPayloadBytes: the translator's payload limit. Default: 1 MiB, as `pushgate translate`.
    ///   - resources: the page and the examples (``PlaygroundResources/load()``).
    public init(maxPayloadBytes: Int = TranslatorConfiguration.defaultMaxPayloadBytes, resources: PlaygroundResources) {
        self.maxPayloadBytes = maxPayloadBytes
        self.resources = resources
    }

    /// The answer to `method uri` with `body`, at the current time.
    public func respond(method: HTTPMethod, uri: String, headers: HTTPHeaders, body: [UInt8]) async -> Response {
        respond(method: method, uri: uri, body: body, nowMs: Int64(Date().timeIntervalSince1970 * 1000))
    }

    /// The answer to `method uri` with `body` (the query string is ignored).
    /// - Parameter nowMs: the time used as record timestamp and read time when the request gives none.
    public func respond(method: HTTPMethod, uri: String, body: [UInt8], nowMs: Int64) -> Response {
        switch Self.path(of: uri) {
        case "/", "/index.html":
            guard method == .GET || method == .HEAD else { return .text(.methodNotAllowed, "use GET\n") }
            return Response(status: .ok, contentType: "text/html; charset=utf-8", body: resources.page)
        case "/api/examples":
            guard method == .GET || method == .HEAD else { return .text(.methodNotAllowed, "use GET\n") }
            return Response(status: .ok, contentType: "application/json", body: resources.examplesJSON)
        case "/api/translate":
            guard method == .POST else { return .text(.methodNotAllowed, "use POST with a JSON body\n") }
            return translate(body, nowMs: nowMs)
        default:
            return .text(.notFound, "not found: try /, /api/examples or POST /api/translate\n")
        }
    }

    /// The answer to a request body above ``maxRequestBytes``.
    public var tooLarge: Response {
        .text(
            .payloadTooLarge,
            "the request is larger than \(maxRequestBytes) bytes (--max-payload-bytes \(maxPayloadBytes) plus \(Self.envelopeBytes))\n"
        )
    }

    /// The records of one request: `[LINE, LINE, ..]` where each LINE is exactly one line of
    /// `pushgate translate` (outputs in SPEC order, then dead letters).
    public func translate(_ body: [UInt8], nowMs: Int64) -> Response {
        let request: PlaygroundRequest
        switch PlaygroundRequest.decode(body, nowMs: nowMs) {
        case .success(let decoded): request = decoded
        case .failure(let error): return .text(.badRequest, error.message + "\n")
        }
        let translator = Translator(
            configuration: TranslatorConfiguration(
                lenient: request.lenient, maxPayloadBytes: maxPayloadBytes, androidFormats: request.androidFormats))
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, record) in translator.translate(request.record, readAtMs: nowMs).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: record.jsonLine())
        }
        out.append(UInt8(ascii: "]"))
        return Response(status: .ok, contentType: "application/json", body: out)
    }
}
