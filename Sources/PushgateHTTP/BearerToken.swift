import Foundation
import NIOHTTP1

/// The token of `--token-file`: every `/api` request must carry `Authorization: Bearer TOKEN`, compared in
/// constant time (the time taken does not depend on where a wrong token first differs).
public struct BearerToken: Sendable {
    private let token: [UInt8]

    /// A token from its text; surrounding white space (a file's final newline) is not part of it.
    /// - Throws: ``BearerTokenError`` when nothing is left.
    public init(_ text: String) throws(BearerTokenError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw BearerTokenError(description: "the token file is empty") }
        guard !trimmed.contains(where: { $0.isWhitespace }) else {
            throw BearerTokenError(description: "the token contains white space")
        }
        token = Array(trimmed.utf8)
    }

    /// Reads the token from `path` (blocking: call it off the cooperative pool).
    public static func read(path: String) throws(BearerTokenError) -> BearerToken {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BearerTokenError(description: "cannot read the token file \(path)")
        }
        return try BearerToken(String(decoding: data, as: UTF8.self))
    }

    /// Whether `authorization` (the header's value) is `Bearer` and this token.
    public func admits(_ authorization: String?) -> Bool {
        guard let authorization else { return false }
        let given = Array(authorization.utf8)
        let prefix = Array("Bearer ".utf8)
        guard given.count == prefix.count + token.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<prefix.count { difference |= (given[index] | 0x20) ^ (prefix[index] | 0x20) }
        for index in 0..<token.count { difference |= given[prefix.count + index] ^ token[index] }
        return difference == 0
    }

    /// The answer to an `/api` request without the token.
    static let unauthorized = HTTPResponse(
        status: .unauthorized, contentType: "text/plain; charset=utf-8",
        body: Array("this server needs Authorization: Bearer TOKEN (the content of --token-file)\n".utf8),
        headers: [("WWW-Authenticate", "Bearer")])
}

/// The token file cannot be used.
public struct BearerTokenError: Error, CustomStringConvertible {
    /// What is wrong with it.
    public let description: String
}

/// The rule for `--host` of `playground` and `console`: any address other than loopback needs a token.
public enum ListenAddressRule {
    /// Whether `host` can be reached from this machine only (`127.0.0.0/8`, `::1`, `localhost`).
    public static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "localhost" || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The message of the refusal, or `nil` when `host` may be bound with or without a token.
    public static func refusal(host: String, hasToken: Bool) -> String? {
        guard !hasToken, !isLoopback(host) else { return nil }
        return "--host \(host) is not loopback: give --token-file, so that only holders of the token reach /api"
    }
}
