import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// HTTP requests, metric parsing and log capture for the tests of the HTTP servers.
public enum HTTPTestSupport {
    /// An answer: its status, its head (status line and headers) and its body.
    public struct HTTPResponse: Sendable {
        /// The status code (0 when the status line cannot be read).
        public let status: Int
        /// The status line and the headers.
        public let headers: String
        /// The body as text.
        public let body: String

        /// Creates an answer from its parts.
        public init(status: Int, headers: String, body: String) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// `GET path` on 127.0.0.1:`port` with `Connection: close`; the answer is read until the server closes
    /// the connection (so a server that ignored `Connection: close` would time the test out).
    public static func get(_ path: String, port: Int) async throws -> HTTPResponse {
        try await send(Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8), port: port)
    }

    /// Sends `request` (a whole HTTP/1.1 request) to 127.0.0.1:`port` and reads until the server closes.
    public static func send(_ request: [UInt8], port: Int) async throws -> HTTPTestSupport.HTTPResponse {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let text = try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(bytes: request))
            var data = ByteBuffer()
            for try await var chunk in inbound { data.writeBuffer(&chunk) }
            return String(buffer: data)
        }
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return .init(status: status, headers: head, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// Samples of a Prometheus text exposition: `name{labels}` → value (label order as emitted).
    public static func samples(_ text: String) -> [String: Double] {
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
    public static func value(_ samples: [String: Double], _ name: String, _ labels: [String: String] = [:]) -> Double {
        samples.filter { key, _ in
            guard key == name || key.hasPrefix(name + "{") else { return false }
            return labels.allSatisfy { key.contains("\($0.key)=\"\($0.value)\"") }
        }.values.reduce(0, +)
    }
}

/// The port a server reports once it listens, set from its event loop and read by the test.
public final class PortBox: Sendable {
    private let port = Mutex<Int?>(nil)

    /// Creates an empty box.
    public init() {}

    /// The port, once set.
    public var value: Int? { port.withLock { $0 } }

    /// Sets the port.
    public func set(_ value: Int) { port.withLock { $0 = value } }
}
