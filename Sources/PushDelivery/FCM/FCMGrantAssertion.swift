import Crypto
import _CryptoExtras

/// The assertion of the OAuth 2.0 JWT-bearer grant (RFC 7523; SPEC 10.4, DELIVERY.md B2): an RS256 JWT, header
/// `{"alg":"RS256","typ":"JWT","kid":PRIVATE_KEY_ID}`, claims `{"iss":CLIENT_EMAIL,"scope":SCOPE,"aud":TOKEN_URI,
/// "iat":SECONDS,"exp":SECONDS+3600}`, signed RSASSA-PKCS1-v1_5 with SHA-256, every part base64url without padding.
public enum FCMGrantAssertion {
    /// The scope FCM's send method needs.
    public static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    /// The assertion's lifetime: Google takes at most an hour.
    public static let lifetimeSeconds: Int64 = 3600
    /// The grant type posted with the assertion.
    public static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    /// The signed assertion of `account`, issued at `issuedAt` (seconds since 1970).
    /// - Throws: the signing error of swift-crypto (which names no key material).
    public static func make(for account: FCMServiceAccount, issuedAt: Int64) throws -> String {
        let json = APNsProviderToken.jsonString
        let header = "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\(json(account.privateKeyID))}"
        let claims =
            "{\"iss\":\(json(account.clientEmail)),\"scope\":\(json(scope)),\"aud\":\(json(account.tokenURI)),"
            + "\"iat\":\(issuedAt),\"exp\":\(issuedAt + lifetimeSeconds)}"
        let signingInput = Base64URLCoding.encode(Array(header.utf8)) + "." + Base64URLCoding.encode(Array(claims.utf8))
        let signature = try account.privateKey.signature(
            for: SHA256.hash(data: Array(signingInput.utf8)), padding: .insecurePKCS1v1_5)
        return signingInput + "." + Base64URLCoding.encode(signature.rawRepresentation)
    }

    /// The form body of the grant: `grant_type=...&assertion=JWT` (`application/x-www-form-urlencoded`; a JWT
    /// holds only characters that need no escape).
    public static func formBody(assertion: String) -> [UInt8] {
        Array("grant_type=\(formEscaped(grantType))&assertion=\(formEscaped(assertion))".utf8)
    }

    /// `text` percent-encoded for a form value: everything but letters, digits and `-._~` escaped.
    static func formEscaped(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return output
    }
}
