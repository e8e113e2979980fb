import Crypto
import Foundation
import PushDelivery
import Testing
import _CryptoExtras

/// The JWT-bearer grant's assertion (SPEC 10.4, RFC 7523): RS256, exact header and claims, a signature the service
/// account's public key verifies.
struct FCMGrantAssertionTests {
    @Test func theHeaderAndClaimsAreTheExactBytesOfTheContract() throws {
        let assertion = try FCMGrantAssertion.make(for: try FCMSamples.account(), issuedAt: 1_800_000_000)
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        #expect(
            Base64URLCoding.decode(parts[0])
                == Array(#"{"alg":"RS256","typ":"JWT","kid":"\#(FCMSamples.privateKeyID)"}"#.utf8))
        let claims = """
            {"iss":"\(FCMSamples.clientEmail)","scope":"https://www.googleapis.com/auth/firebase.messaging",\
            "aud":"\(FCMSamples.tokenURI)","iat":1800000000,"exp":1800003600}
            """
        #expect(Base64URLCoding.decode(parts[1]) == Array(claims.utf8))
        #expect(!assertion.contains("=") && !assertion.contains("+") && !assertion.contains("/"))
    }

    @Test func theSignatureIsPKCS1SHA256ThatThePublicKeyVerifies() throws {
        let assertion = try FCMGrantAssertion.make(for: try FCMSamples.account(), issuedAt: 1_800_000_000)
        let signingInput = Array(assertion[..<(try #require(assertion.lastIndex(of: ".")))].utf8)
        let signatureText = String(assertion[assertion.index(after: try #require(assertion.lastIndex(of: ".")))...])
        let signature = _RSA.Signing.RSASignature(
            rawRepresentation: try #require(Base64URLCoding.decode(signatureText)))
        #expect(signature.rawRepresentation.count == 256)
        let publicKey = try FCMSamples.key().publicKey
        #expect(
            publicKey.isValidSignature(signature, for: SHA256.hash(data: signingInput), padding: .insecurePKCS1v1_5))
        #expect(!publicKey.isValidSignature(signature, for: SHA256.hash(data: signingInput), padding: .PSS))
        let otherKey = try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey
        #expect(
            !otherKey.isValidSignature(signature, for: SHA256.hash(data: signingInput), padding: .insecurePKCS1v1_5))
        #expect(
            !publicKey.isValidSignature(
                signature, for: SHA256.hash(data: signingInput + [0x20]), padding: .insecurePKCS1v1_5))
    }

    @Test func theFormBodyIsTheGrantTypeAndTheAssertion() {
        #expect(
            FCMGrantAssertion.formBody(assertion: "aa.bb.c-_")
                == Array("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=aa.bb.c-_".utf8))
        #expect(
            FCMGrantAssertion.formBody(assertion: "a b&=")
                == Array("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=a%20b%26%3D".utf8))
    }
}
