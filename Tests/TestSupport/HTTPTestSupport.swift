import Foundation
import Logging
import NIOCore
import NIOPosix
import PushgateSettings
import Synchronization

/// HTTP requests, metric parsing and log capture for the tests of the HTTP servers.
enum HTTPTestSupport {
    struct HTTPResponse {
        let status: Int
        let headers: String
        let body: String
    }

    /// `GET path` on 127.0.0.1:`port` with `Connection: close`; the answer is read until the server closes
    /// the connection (so a server that ignored `Connection: close` would time the test out).
    static func get(_ path: String, port: Int) async throws -> HTTPResponse {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let text = try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(
                ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
            var data = ByteBuffer()
            for try await var chunk in inbound { data.writeBuffer(&chunk) }
            return String(buffer: data)
        }
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return HTTPResponse(status: status, headers: head, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// Samples of a Prometheus text exposition: `name{labels}` → value (label order as emitted).
    static func samples(_ text: String) -> [String: Double] {
        var result: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            result[String(line[..<space])] = value
        }
        return result
    }

    /// The value of `name` whose labels include every one of `labels`, summed over the other labels.
    static func value(_ samples: [String: Double], _ name: String, _ labels: [String: String] = [:]) -> Double {
        samples.filter { key, _ in
            guard key == name || key.hasPrefix(name + "{") else { return false }
            return labels.allSatisfy { key.contains("\($0.key)=\"\($0.value)\"") }
        }.values.reduce(0, +)
    }
}
