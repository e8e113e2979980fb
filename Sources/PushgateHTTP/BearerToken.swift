import Foundation
import NIOHTTP1

/// The token of `--token-file`: every `/api` request must carry `Authorization: Bearer TOKEN`, compared in
/// constant time (the time taken depends neither on where a wrong token first differs nor on its length).
public struct BearerToken: Sendable {
    private let token: [UInt8]

    /// A token from its text; surrounding white space (a file's final newline) is not part of it.
    /// - Throws: ``BearerTokenError`` when nothing is left, or the token holds white space.
    public init(_ text: String) throws(BearerTokenError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw BearerTokenError(description: "the token file is empty") }
        guard !trimmed.contains(where: { $0.isWhitespace }) else {
            throw BearerTokenError(description: "the token contains white space")
        }
        guard trimmed.utf8.count <= Self.longest else {
            throw BearerTokenError(description: "the token is longer than \(Self.longest) bytes")
        }
        token = Array(trimmed.utf8)
    }

    /// The longest token accepted, in bytes.
    public static let longest = 1000
    /// How many bytes a comparison looks at, at least: so its time does not tell the token's length.
    static let comparedBytes = 1024

    /// Reads the token from `path` (blocking: call it off the cooperative pool).
    public static func read(path: String) throws(BearerTokenError) -> BearerToken {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BearerTokenError(description: "cannot read the token file \(path)")
        }
        return try BearerToken(String(decoding: data, as: UTF8.self))
    }

    /// Whether `authorization` (the header's value) is `Bearer TOKEN`: the scheme in any case, one space,
    /// this token; white space around the whole value is ignored.
    public func admits(_ authorization: String?) -> Bool {
        guard let authorization else { return false }
        let given = Array(authorization.trimmingCharacters(in: .whitespaces).utf8)
        let scheme = Array("bearer ".utf8)
        // At least `comparedBytes` bytes are looked at, whatever the token's length and the given one's.
        let expectedLength = scheme.count + token.count
        var difference = given.count == expectedLength ? 0 : 1
        for index in 0..<max(given.count, Self.comparedBytes) {
            let byte = index < given.count ? given[index] : 0
            if index < scheme.count {
                // Letters compare in either case; the space must be a space.
                let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                difference |= Int(folded ^ scheme[index])
            } else {
                let wanted = index < expectedLength ? token[index - scheme.count] : 0
                difference |= Int(byte ^ wanted)
            }
        }
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
        if bare.lowercased() == "localhost" || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The message of the refusal, or `nil` when `host` may be bound with or without a token.
    public static func refusal(host: String, hasToken: Bool) -> String? {
        guard !hasToken, !isLoopback(host) else { return nil }
        return "--host \(host) is not loopback: give --token-file, so that only holders of the token reach /api"
    }

    /// The host name of a `Host` header (`name:port`, `[v6]:port`), without its port.
    static func hostName(ofHeader value: String) -> String {
        if value.hasPrefix("["), let close = value.firstIndex(of: "]") {
            return String(value[...close])
        }
        return String(value.split(separator: ":", maxSplits: 1).first ?? "")
    }
}
