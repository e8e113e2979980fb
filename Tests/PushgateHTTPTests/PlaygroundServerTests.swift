import Foundation
import Logging
import NIOCore
import NIOPosix
import PushgateHTTP
import PushgateTestSupport
import Testing

@Suite("Playground server")
struct PlaygroundServerTests {
    static func post(_ body: [UInt8], port: Int) async throws -> HTTPTestSupport.HTTPResponse {
        let head =
            "POST /api/translate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return try await HTTPTestSupport.send(Array(head.utf8) + body, port: port)
    }

    /// Runs `body` against a server on an ephemeral loopback port, then cancels it and waits for it to stop.
    static func withServer(
        maxPayloadBytes: Int = 1_048_576, _ body: @Sendable (Int) async throws -> Void
    ) async throws {
        let port = PortBox()
        var logger = Logger(label: "playground-test")
        logger.logLevel = .critical
        let server = PlaygroundServer(
            port: 0, routes: try PlaygroundRoutesTests.routes(maxPayloadBytes: maxPayloadBytes), logger: logger,
            onListening: { port.set($0) })
        let running = Task { try await server.run() }
        let bound = try await eventually(seconds: 20, "the playground to listen") { port.value }
        do {
            try await body(bound)
        } catch {
            running.cancel()
            throw error
        }
        running.cancel()
        try await running.value
    }

    @Test func servesOnAnEphemeralPortAndStopsWhenCancelled() async throws {
        let port = PortBox()
        try await Self.withServer { bound in
            port.set(bound)
            #expect(bound > 0)
            let page = try await HTTPTestSupport.get("/", port: bound)
            #expect(page.status == 200)
            #expect(page.body.contains("<title>pushgate playground</title>"))
            #expect(page.headers.lowercased().contains("connection: close"))
            let examples = try await HTTPTestSupport.get("/api/examples", port: bound)
            #expect(examples.status == 200)
            #expect(examples.body.hasPrefix("[\""))
        }
        let stopped = try #require(port.value)
        await #expect(throws: (any Error).self) { _ = try await HTTPTestSupport.get("/", port: stopped) }
    }

    @Test func translateOverHTTPAnswersTheSameBytesAsTheRoutes() async throws {
        try await Self.withServer { port in
            let body = PlaygroundRoutesTests.body(#"{"message":{"title":"T","body":"B"},"data":{"n":1.50}}"#)
            let response = try await Self.post(body, port: port)
            #expect(response.status == 200)
            let direct = try PlaygroundRoutesTests.routes().translate(body, nowMs: 1)
            #expect(response.body == String(decoding: direct.body, as: UTF8.self))
            #expect(response.body.contains(#""n":1.50"#))
        }
    }

    @Test func malformedRequestIs400WithAMessage() async throws {
        try await Self.withServer { port in
            let response = try await Self.post(Array(#"{"payload":"{}","record":{"offset":-5}}"#.utf8), port: port)
            #expect(response.status == 400)
            #expect(response.body.contains("record.offset must be 0 or more"))
        }
    }

    @Test func bodyAboveTheLimitIs413AndOneWithinItIsTranslated() async throws {
        try await Self.withServer(maxPayloadBytes: 100) { port in
            let limit = 100 + PlaygroundRoutes.envelopeBytes
            let within = PlaygroundRoutesTests.body(String(repeating: " ", count: limit - 200) + "{}")
            #expect(within.count <= limit)
            let ok = try await Self.post(within, port: port)
            #expect(ok.status == 200)
            #expect(ok.body.contains("too_large"))
            let over = PlaygroundRoutesTests.body(String(repeating: " ", count: limit + 1))
            let refused = try await Self.post(over, port: port)
            #expect(refused.status == 413)
            #expect(refused.body.contains("larger than \(limit) bytes"))
            // Without Content-Length (chunked), the limit holds as the body arrives.
            let chunked =
                "POST /api/translate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + String(over.count, radix: 16) + "\r\n" + String(decoding: over, as: UTF8.self) + "\r\n0\r\n\r\n"
            #expect(try await HTTPTestSupport.send(Array(chunked.utf8), port: port).status == 413)
            // A client that waits for 100 Continue is refused before it sends the body.
            let waiting =
                "POST /api/translate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(over.count)\r\n"
                + "Expect: 100-continue\r\n\r\n"
            #expect(try await HTTPTestSupport.send(Array(waiting.utf8), port: port).status == 413)
            // Within the limit it is told to go on, then answered.
            let going =
                "POST /api/translate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(within.count)\r\n"
                + "Expect: 100-continue\r\nConnection: close\r\n\r\n"
            let answer = try await HTTPTestSupport.send(Array(going.utf8) + within, port: port)
            #expect(answer.status == 100)
            #expect(answer.body.hasPrefix("HTTP/1.1 200 OK"))
        }
    }
}
