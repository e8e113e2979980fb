import Foundation
import Testing

@testable import PushDelivery

/// The shared HTTP client's start checks (`--ca-file`), its AsyncHTTPClient settings and its answers' header lookup.
struct PushHTTPClientTests {
    @Test func aMissingCAFileIsAnErrorNamingTheOption() {
        #expect(throws: SenderOptionError(option: "--ca-file", message: "/nonexistent/ca.pem: no such file")) {
            try PushHTTPClient(configuration: PushHTTPConfiguration(caFiles: ["/nonexistent/ca.pem"]))
        }
    }

    @Test func aCAFileWithoutACertificateIsAnErrorNamingTheOption() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString).pem").path
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: SenderOptionError(option: "--ca-file", message: "\(path) holds no PEM certificate")) {
            try PushHTTPClient(configuration: PushHTTPConfiguration(caFiles: [path]))
        }
    }

    @Test func withoutCAFilesTheClientStartsAndStops() async throws {
        let client = try PushHTTPClient(configuration: PushHTTPConfiguration(requestTimeout: .milliseconds(1500)))
        #expect(client.configuration.requestTimeout == .milliseconds(1500))
        #expect(client.configuration.caFiles.isEmpty && client.configuration.idleTimeout == .seconds(600))
        await client.shutdown()
    }

    @Test func eachClientMakesNoSpanOfItsOwnAndKeepsTheTimeouts() {
        let configuration = PushHTTPConfiguration(connectTimeout: .seconds(7), idleTimeout: .seconds(90))
        let client = PushHTTPClient.clientConfiguration(tls: .makeClientConfiguration(), configuration: configuration)
        #expect(client.tracing.tracer == nil, "pushgate makes the request's span; AsyncHTTPClient's own is off")
        #expect(client.timeout.connect == .seconds(7) && client.connectionPool.idleTimeout == .seconds(90))
        #expect(client.httpVersion == .automatic)
    }

    @Test func answerHeadersAreFoundWhateverTheirCase() {
        let answer = HTTPAnswer(status: 200, headers: [(name: "APNs-ID", value: "a"), (name: "apns-id", value: "b")])
        #expect(answer.header("apns-id") == "a" && answer.header("Apns-Id") == "a" && answer.header("x") == nil)
    }
}
