import Crypto
import Foundation
import PushDelivery
import Testing

/// The provider token (SPEC 10.3): an ES256 JWT Apple can verify, reused for its lifetime, renewed once.
struct APNsProviderTokenTests {
    let key = P256.Signing.PrivateKey()
    let clock = ManualClock()

    func tokens() -> APNsProviderToken {
        APNsProviderToken(key: key, keyID: "KEYID12345", teamID: "TEAMID6789", now: clock.function)
    }

    func parts(_ token: String) throws -> (header: [String: Any], claims: [String: Any], signature: [UInt8]) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        let header = try #require(Base64URLCoding.decode(parts[0]))
        let claims = try #require(Base64URLCoding.decode(parts[1]))
        return (
            try #require(JSONSerialization.jsonObject(with: Data(header)) as? [String: Any]),
            try #require(JSONSerialization.jsonObject(with: Data(claims)) as? [String: Any]),
            try #require(Base64URLCoding.decode(parts[2]))
        )
    }

    @Test func theTokenIsAnES256JWTWhoseRawSignatureThePublicKeyVerifies() throws {
        let token = try tokens().current()
        let (header, claims, signature) = try parts(token)
        #expect(header.count == 2 && header["alg"] as? String == "ES256" && header["kid"] as? String == "KEYID12345")
        #expect(claims.count == 2 && claims["iss"] as? String == "TEAMID6789")
        #expect((claims["iat"] as? NSNumber)?.int64Value == clock.now)
        #expect(signature.count == 64)
        #expect(!token.contains("=") && !token.contains("+") && !token.contains("/"))
        let signingInput = Array(token[..<token.lastIndex(of: ".")!].utf8)
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(key.publicKey.isValidSignature(ecdsa, for: signingInput))
        #expect(!P256.Signing.PrivateKey().publicKey.isValidSignature(ecdsa, for: signingInput))
    }

    @Test func theHeaderAndClaimsAreTheExactBytesOfTheContract() throws {
        let token = try tokens().current()
        let parts = token.split(separator: ".").map(String.init)
        #expect(Base64URLCoding.decode(parts[0]) == Array(#"{"alg":"ES256","kid":"KEYID12345"}"#.utf8))
        #expect(Base64URLCoding.decode(parts[1]) == Array(#"{"iss":"TEAMID6789","iat":1800000000}"#.utf8))
    }

    @Test func oneTokenServesItsWholeLifetimeThenANewOneIsMade() throws {
        let tokens = tokens()
        let first = try tokens.current()
        clock.advance(by: APNsProviderToken.lifetime.components.seconds - 1)
        #expect(try tokens.current() == first)
        clock.advance(by: 1)
        let second = try tokens.current()
        #expect(second != first)
        #expect((try parts(second).claims["iat"] as? NSNumber)?.int64Value == clock.now)
        #expect(APNsProviderToken.lifetime >= .seconds(20 * 60) && APNsProviderToken.lifetime <= .seconds(50 * 60))
    }

    @Test func aClockThatWentBackMakesANewToken() throws {
        let tokens = tokens()
        let first = try tokens.current()
        clock.advance(by: -5)
        #expect(try tokens.current() != first)
    }

    @Test func renewingTheCurrentTokenMakesOneNewTokenForEveryRequestRefusedWithIt() async throws {
        let tokens = tokens()
        let used = try tokens.current()
        clock.advance(by: 1)
        let renewed = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<64 { group.addTask { try tokens.renew(replacing: used) } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(renewed.count == 1)
        #expect(!renewed.contains(used))
        #expect(try tokens.current() == renewed.first)
    }

    @Test func renewingAnOlderTokenKeepsTheCurrentOne() throws {
        let tokens = tokens()
        let old = try tokens.current()
        clock.advance(by: 1)
        let current = try tokens.renew(replacing: old)
        clock.advance(by: 1)
        #expect(try tokens.renew(replacing: old) == current)
    }

    @Test func idsWithQuotesAreEscapedInTheJSON() throws {
        let token = try APNsProviderToken(key: key, keyID: "K\"1\\", teamID: "T\n", now: clock.function).current()
        let (header, claims, _) = try parts(token)
        #expect(header["kid"] as? String == "K\"1\\" && claims["iss"] as? String == "T\n")
    }
}
