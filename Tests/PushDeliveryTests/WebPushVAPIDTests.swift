import Crypto
import Foundation
import PushDelivery
import Testing

/// VAPID (RFC 8292, SPEC 10.5): the token's shape, its signature verified with the public key sent as `k`, reuse
/// per origin until an hour before `exp`, and the key files read.
struct WebPushVAPIDTests {
    let key = P256.Signing.PrivateKey()
    let clock = ManualClock()

    func tokens(subject: String = "mailto:ops@example.com") -> VAPIDToken {
        VAPIDToken(key: key, subject: subject, now: clock.function)
    }

    func decode(_ token: String) throws -> (header: [String: Any], claims: [String: Any], signed: Bool) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        let headerBytes = try #require(Base64URLCoding.decode(parts[0]))
        let claimsBytes = try #require(Base64URLCoding.decode(parts[1]))
        let signatureBytes = try #require(Base64URLCoding.decode(parts[2]))
        let header = try #require(try JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any])
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(claimsBytes)) as? [String: Any])
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        let sent = try P256.Signing.PublicKey(
            x963Representation: try #require(Base64URLCoding.decode(tokens().publicKey)))
        return (header, claims, sent.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)))
    }

    @Test func theTokenIsAnES256JWTForTheOriginSignedByTheKeySentAsK() throws {
        let token = try tokens().token(for: "https://web.push.apple.com")
        let (header, claims, signed) = try decode(token)
        #expect(header["alg"] as? String == "ES256" && header["typ"] as? String == "JWT" && header.count == 2)
        #expect(claims["aud"] as? String == "https://web.push.apple.com")
        #expect(claims["sub"] as? String == "mailto:ops@example.com")
        let exp = try #require(claims["exp"] as? Int64)
        #expect(exp > clock.now && exp <= clock.now + 24 * 3600)
        #expect(claims.count == 3)
        #expect(signed)
        #expect(tokens().publicKey == Base64URLCoding.encode(Array(key.publicKey.x963Representation)))
        #expect(Base64URLCoding.decode(tokens().publicKey)?.count == 65)
    }

    @Test func theAuthorizationHeaderIsVapidTAndK() throws {
        let source = tokens()
        let token = try source.token(for: "https://a.push.apple.com")
        #expect(source.authorization(token) == "vapid t=\(token), k=\(source.publicKey)")
    }

    @Test func aTokenIsReusedPerOriginUntilAnHourBeforeItsExp() throws {
        let source = tokens()
        let first = try source.token(for: "https://a.push.apple.com")
        #expect(try source.token(for: "https://a.push.apple.com") == first)
        #expect(try source.token(for: "https://b.push.apple.com") != first)
        clock.advance(by: VAPIDToken.lifetime - VAPIDToken.renewalMargin - 1)
        #expect(try source.token(for: "https://a.push.apple.com") == first)
        clock.advance(by: 1)
        let renewed = try source.token(for: "https://a.push.apple.com")
        #expect(renewed != first)
        let exp = try #require(try decode(renewed).claims["exp"] as? Int64)
        #expect(exp == clock.now + VAPIDToken.lifetime)
    }

    @Test func aRefusedTokenIsNotUsedAgain() throws {
        let source = tokens()
        let first = try source.token(for: "https://a.push.apple.com")
        source.invalidate("another", origin: "https://a.push.apple.com")
        #expect(try source.token(for: "https://a.push.apple.com") == first)
        source.invalidate(first, origin: "https://a.push.apple.com")
        clock.advance(by: 1)
        #expect(try source.token(for: "https://a.push.apple.com") != first)
    }

    @Test func aClockGoneBackMakesANewToken() throws {
        let source = tokens()
        let first = try source.token(for: "https://a.push.apple.com")
        clock.advance(by: -VAPIDToken.lifetime)
        #expect(try source.token(for: "https://a.push.apple.com") != first)
    }

    @Test func pkcs8AndSEC1KeysAreRead() throws {
        let pkcs8 = Array(key.pemRepresentation.utf8)
        #expect(try VAPIDKey.parse(pkcs8, source: "site=k.pem").rawRepresentation == key.rawRepresentation)
        // SEC1 with the EC PARAMETERS block `openssl ecparam -genkey` writes before it.
        let sec1 = try P256.Signing.PrivateKey(derRepresentation: key.derRepresentation)
        let parameters = Self.pem("EC PARAMETERS", body: "BggqhkjOPQMBBw==")  // the OID of P-256
        let sec1PEM = parameters + Self.sec1PEM(sec1)
        #expect(
            try VAPIDKey.parse(Array(sec1PEM.utf8), source: "site=k.pem").rawRepresentation == key.rawRepresentation)
    }

    /// The SEC1 `EC PRIVATE KEY` PEM of a key, built from its DER (the PKCS#8 DER's inner octet string).
    static func sec1PEM(_ key: P256.Signing.PrivateKey) -> String {
        // PKCS#8 for P-256: SEQUENCE header (3 bytes), version (3), algorithm (21), then the OCTET STRING holding
        // SEC1's DER: its tag at 27, its length from 28.
        let der = Array(key.derRepresentation)
        let length = der[28]
        let inner = Array(der[(length & 0x80 == 0 ? 29 : 29 + Int(length & 0x7F))...])
        let body = Data(inner).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return pem("EC PRIVATE KEY", body: body)
    }

    /// A PEM block, its markers made here (no key, no marker is written in the source).
    static func pem(_ label: String, body: String) -> String {
        let dashes = String(repeating: "-", count: 5)
        return "\(dashes)BEGIN \(label)\(dashes)\n\(body)\n\(dashes)END \(label)\(dashes)\n"
    }

    @Test func aFileThatIsNotAP256KeyIsAnErrorNamingOptionAndFileNotTheKey() throws {
        let p384 = P384.Signing.PrivateKey().pemRepresentation
        for bytes in [Array(p384.utf8), Array("not a key".utf8), [0xFF, 0xFE], Array(Self.publicOnly(key).utf8)] {
            do {
                _ = try VAPIDKey.parse(bytes, source: "site=/keys/vapid.pem")
                Issue.record("read as a key")
            } catch {
                #expect(error.option == "--vapid-key")
                #expect(error.description.contains("site=/keys/vapid.pem"))
                #expect(error.description.contains("not a P-256 private key"))
                #expect(!error.description.contains("MI"))
            }
        }
    }

    static func publicOnly(_ key: P256.Signing.PrivateKey) -> String { key.publicKey.pemRepresentation }

    @Test func aMissingFileNamesTheOptionAndTheKeysName() {
        #expect(throws: SenderOptionError(option: "--vapid-key site", message: "/nonexistent/vapid.pem: no such file"))
        {
            try VAPIDKey.load(name: "site", path: "/nonexistent/vapid.pem")
        }
    }

    @Test(arguments: ["mailto:ops@example.com", "https://example.com", "https://example.com/contact"])
    func aSubjectIsAMailtoOrAnHttpsURI(subject: String) throws {
        try WebPushSender.checkSubject(subject)
    }

    @Test(arguments: [
        "ops@example.com", "mailto:", "mailto:ops", "mailto: <ops@example.com>", "http://example.com",
        "https://", "", "https:///x",
    ])
    func anyOtherSubjectIsRefused(subject: String) {
        #expect(throws: SenderOptionError.self) { try WebPushSender.checkSubject(subject) }
    }
}
