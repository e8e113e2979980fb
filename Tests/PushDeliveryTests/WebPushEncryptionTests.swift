import Crypto
import Foundation
import Testing

@testable import PushDelivery

/// RFC 8291 `aes128gcm` encryption (SPEC 10.5): Appendix A's test vector reproduced byte for byte with its ephemeral
/// key and salt injected, and the layout of every body.
struct WebPushEncryptionTests {
    /// RFC 8291 Appendix A (DELIVERY.md C2), base64url.
    enum Vector {
        static let plaintext = "V2hlbiBJIGdyb3cgdXAsIEkgd2FudCB0byBiZSBhIHdhdGVybWVsb24"
        static let serverPublic =
            "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        static let serverPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let userAgentPublic =
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let userAgentPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
        static let contentKey = "oIhVW04MRdy2XN9CiKLxTg"
        static let nonce = "4h_95klXJ5E_qnoN"
        static let body =
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    static func bytes(_ text: String) -> [UInt8] { Base64URLCoding.decode(text) ?? [] }

    static func vectorKey() throws -> P256.KeyAgreement.PrivateKey {
        try P256.KeyAgreement.PrivateKey(rawRepresentation: bytes(Vector.serverPrivate))
    }

    @Test func theInjectedKeyIsTheVectorsServerKey() throws {
        #expect(Array(try Self.vectorKey().publicKey.x963Representation) == Self.bytes(Vector.serverPublic))
    }

    @Test func derivesTheVectorsContentKeyAndNonce() throws {
        let keys = try WebPushEncryption.deriveKeys(
            userAgentKey: Self.bytes(Vector.userAgentPublic), authSecret: Self.bytes(Vector.authSecret),
            ephemeralKey: try Self.vectorKey(), salt: Self.bytes(Vector.salt))
        #expect(Base64URLCoding.encode(keys.contentKey) == Vector.contentKey)
        #expect(Base64URLCoding.encode(keys.nonce) == Vector.nonce)
    }

    @Test func reproducesRFC8291AppendixA() throws {
        let body = try WebPushEncryption.encrypt(
            Self.bytes(Vector.plaintext), userAgentKey: Self.bytes(Vector.userAgentPublic),
            authSecret: Self.bytes(Vector.authSecret), ephemeralKey: try Self.vectorKey(), salt: Self.bytes(Vector.salt)
        )
        #expect(body.count == 144)
        #expect(Base64URLCoding.encode(body) == Vector.body)
    }

    @Test func everyBodyHasANewKeyAndSaltAndTheHeaderLayout() throws {
        let subscription = WebPushSubscription(
            endpoint: "https://updates.push.services.mozilla.com/wpush/v2/x",
            p256dh: Self.bytes(Vector.userAgentPublic),
            auth: Self.bytes(Vector.authSecret))
        let value = Array(#"{"web_push":8030}"#.utf8)
        let first = try WebPushEncryption.encrypt(value, for: subscription)
        let second = try WebPushEncryption.encrypt(value, for: subscription)
        for body in [first, second] {
            #expect(body.count == 86 + value.count + 1 + 16)
            #expect(Array(body[16..<20]) == [0, 0, 0x10, 0])  // rs = 4096
            #expect(body[20] == 65)
            #expect(body[21] == 0x04)
            #expect((try? P256.KeyAgreement.PublicKey(x963Representation: body[21..<86])) != nil)
        }
        #expect(first[0..<16] != second[0..<16])
        #expect(first[21..<86] != second[21..<86])
    }

    @Test func theUserAgentDecryptsWhatWasSent() throws {
        let userAgent = P256.KeyAgreement.PrivateKey()
        let auth = SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        let value = Array("Ünïcödé and 0x02 \u{2} bytes".utf8)
        let body = try WebPushEncryption.encrypt(
            value,
            for: WebPushSubscription(
                endpoint: "https://a.push.apple.com/x", p256dh: Array(userAgent.publicKey.x963Representation),
                auth: auth))
        // The receiving side of RFC 8291, written from its section 3.4: the same derivation from the user agent's
        // private key and the sender's key in the header.
        let salt = Array(body[0..<16])
        let sender = try P256.KeyAgreement.PublicKey(x963Representation: body[21..<86])
        let shared = try userAgent.sharedSecretFromKeyAgreement(with: sender).withUnsafeBytes { Array($0) }
        let info =
            Array("WebPush: info".utf8) + [0] + Array(userAgent.publicKey.x963Representation) + Array(body[21..<86])
        let ikm = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: shared), salt: auth, info: info, outputByteCount: 32)
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: aes128gcm\0".utf8), outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: nonce\0".utf8), outputByteCount: 12)
        let record = Array(body[86...])
        let box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) }), ciphertext: record.dropLast(16),
            tag: record.suffix(16))
        let padded = Array(try AES.GCM.open(box, using: key))
        #expect(padded == value + [0x02])
    }

    @Test func aValueOneRecordCannotHoldIsRefused() throws {
        let subscription = WebPushSubscription(
            endpoint: "https://a.push.apple.com/x", p256dh: Self.bytes(Vector.userAgentPublic),
            auth: Self.bytes(Vector.authSecret))
        #expect(
            try WebPushEncryption.encrypt([UInt8](repeating: 0x41, count: 4079), for: subscription).count == 4096 + 86)
        #expect(throws: WebPushEncryption.Failure.payloadTooLarge) {
            try WebPushEncryption.encrypt([UInt8](repeating: 0x41, count: 4080), for: subscription)
        }
    }

    @Test func aKeyOffTheCurveOrAShortAuthIsAnInvalidSubscription() {
        let offCurve = WebPushSubscription(
            endpoint: "https://a.push.apple.com/x", p256dh: [4] + Array(1...64), auth: Self.bytes(Vector.authSecret))
        #expect(throws: WebPushEncryption.Failure.invalidSubscription) {
            try WebPushEncryption.encrypt([1], for: offCurve)
        }
        let shortAuth = WebPushSubscription(
            endpoint: "https://a.push.apple.com/x", p256dh: Self.bytes(Vector.userAgentPublic), auth: Array(0..<15))
        #expect(throws: WebPushEncryption.Failure.invalidSubscription) {
            try WebPushEncryption.encrypt([1], for: shortAuth)
        }
        #expect(!WebPushEncryption.isCurvePoint([4] + Array(1...64)))
        #expect(WebPushEncryption.isCurvePoint(Self.bytes(Vector.userAgentPublic)))
    }
}
