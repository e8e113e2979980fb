import Crypto
import Foundation
import Synchronization

/// The provider token of APNs token-based authentication (SPEC 10.3): an ES256 JWT, header
/// `{"alg":"ES256","kid":KEY_ID}`, claims `{"iss":TEAM_ID,"iat":SECONDS}`, signature the 64-byte `r||s`
/// base64url without padding. Made once and reused by every request for ``lifetime``, made again at once when APNs
/// answers `ExpiredProviderToken` (``renew(replacing:)``). Safe to share between tasks.
public final class APNsProviderToken: Sendable {
    /// How long one token is used: 40 minutes. Apple refuses a token whose `iat` is more than an hour old and
    /// token updates more often than every 20 minutes; 40 minutes is the middle of that window, so that a clock up
    /// to 20 minutes behind Apple's (plus a request's timeout) still gives tokens Apple takes, and updates stay 40
    /// minutes apart, twice the least Apple allows.
    public static let lifetime: Duration = .seconds(40 * 60)

    private struct State {
        var token: String?
        var issuedAt: Int64 = 0
    }

    /// The key's 32 bytes: swift-crypto's key type is not `Sendable`; a key is made of them for each signature
    /// (once per token).
    private let keyBytes: [UInt8]
    private let header: String
    private let teamID: String
    private let clock: @Sendable () -> Int64
    private let state = Mutex(State())

    /// Creates the token source for `key`; `now` gives the seconds since 1970 the tokens' `iat` and ages are
    /// counted in (the system clock; tests pass their own).
    public init(
        key: P256.Signing.PrivateKey, keyID: String, teamID: String,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.keyBytes = Array(key.rawRepresentation)
        self.header = Base64URLCoding.encode(Array("{\"alg\":\"ES256\",\"kid\":\(Self.jsonString(keyID))}".utf8))
        self.teamID = teamID
        self.clock = now
    }

    /// The token to use now: the current one, or a new one when it is ``lifetime`` old (or the clock went back).
    public func current() throws -> String {
        try state.withLock { state throws -> String in try valid(&state) }
    }

    /// The token to use after APNs refused `used` as expired: a new one if `used` is still the current token,
    /// else the current one. Many requests refused together thus make one new token, not one each.
    public func renew(replacing used: String) throws -> String {
        try state.withLock { state throws -> String in
            if state.token == used { state.token = nil }
            return try valid(&state)
        }
    }

    private func valid(_ state: inout State) throws -> String {
        let now = clock()
        if let token = state.token, now >= state.issuedAt, now - state.issuedAt < Self.lifetime.components.seconds {
            return token
        }
        let token = try make(issuedAt: now)
        state = State(token: token, issuedAt: now)
        return token
    }

    private func make(issuedAt: Int64) throws -> String {
        let claims = Base64URLCoding.encode(Array("{\"iss\":\(Self.jsonString(teamID)),\"iat\":\(issuedAt)}".utf8))
        let signingInput = header + "." + claims
        let key = try P256.Signing.PrivateKey(rawRepresentation: keyBytes)
        let signature = try key.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URLCoding.encode(signature.rawRepresentation)
    }

    /// `text` as a JSON string (quotes, backslashes and control characters escaped).
    static func jsonString(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
