import Crypto
import Foundation

/// The body of a web push: the record's value encrypted for one subscription as RFC 8291 says, in RFC 8188's
/// `aes128gcm` coding (SPEC 10.5), with swift-crypto's P-256 key agreement, HKDF-SHA-256 and AES-128-GCM.
///
/// Layout: `salt(16) | rs(4, big-endian) = 4096 | idlen(1) = 65 | keyid = the ephemeral public key (65) | record`,
/// one record: the value, the delimiter `0x02`, no padding, sealed with its 16-byte tag. Every body has a new
/// ephemeral key pair and a new random salt.
public enum WebPushEncryption {
    /// The record size written in the header (`rs`).
    public static let recordSize = 4096
    /// The header's size: salt, `rs`, `idlen` and the 65-byte key id.
    public static let headerSize = 86
    /// The largest value one record of ``recordSize`` holds: the record less the delimiter and the tag.
    public static let largestValue = recordSize - 1 - 16

    /// Why a value cannot be encrypted for a subscription.
    public enum Failure: String, Error, Sendable, Hashable {
        /// `p256dh` is not an uncompressed point on P-256, or `auth` is not 16 bytes.
        case invalidSubscription = "invalid_subscription"
        /// The value is larger than one record holds (``largestValue``).
        case payloadTooLarge = "payload_too_large"
    }

    /// The keys RFC 8291 derives for one message (section 3.4): the content-encryption key and the nonce.
    struct DerivedKeys {
        var contentKey: [UInt8]
        var nonce: [UInt8]
    }

    /// `value` encrypted for `subscription`, with a new ephemeral key pair and salt.
    public static func encrypt(_ value: [UInt8], for subscription: WebPushSubscription) throws(Failure) -> [UInt8] {
        let salt = SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        return try encrypt(
            value, userAgentKey: subscription.p256dh, authSecret: subscription.auth,
            ephemeralKey: P256.KeyAgreement.PrivateKey(), salt: salt)
    }

    /// `value` encrypted with the given ephemeral key and salt (RFC 8291 Appendix A's test vector injects both).
    static func encrypt(
        _ value: [UInt8], userAgentKey: [UInt8], authSecret: [UInt8], ephemeralKey: P256.KeyAgreement.PrivateKey,
        salt: [UInt8]
    ) throws(Failure) -> [UInt8] {
        guard value.count <= largestValue else { throw .payloadTooLarge }
        let serverKey = Array(ephemeralKey.publicKey.x963Representation)
        let keys = try deriveKeys(
            userAgentKey: userAgentKey, authSecret: authSecret, ephemeralKey: ephemeralKey, salt: salt)
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.seal(
                value + [0x02], using: SymmetricKey(data: keys.contentKey), nonce: AES.GCM.Nonce(data: keys.nonce))
        } catch {
            // Only a key or nonce of the wrong size makes sealing fail; the derivation above gives neither.
            throw .invalidSubscription
        }
        let size = UInt32(recordSize)
        let header =
            salt + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + [UInt8(serverKey.count)] + serverKey
        return header + Array(sealed.ciphertext) + Array(sealed.tag)
    }

    /// RFC 8291 section 3.3 and 3.4: the ECDH secret of the ephemeral key and the user agent's key, mixed with the
    /// authentication secret, then RFC 8188's key and nonce from the salt.
    static func deriveKeys(
        userAgentKey: [UInt8], authSecret: [UInt8], ephemeralKey: P256.KeyAgreement.PrivateKey, salt: [UInt8]
    ) throws(Failure) -> DerivedKeys {
        guard userAgentKey.count == 65, userAgentKey.first == 0x04, authSecret.count == 16, salt.count == 16,
            let peer = try? P256.KeyAgreement.PublicKey(x963Representation: userAgentKey),
            let shared = try? ephemeralKey.sharedSecretFromKeyAgreement(with: peer)
        else { throw .invalidSubscription }
        let ecdhSecret = shared.withUnsafeBytes { SymmetricKey(data: Array($0)) }
        let serverKey = Array(ephemeralKey.publicKey.x963Representation)
        let keyInfo = Array("WebPush: info".utf8) + [0] + userAgentKey + serverKey
        let authKey = HKDF<SHA256>.extract(inputKeyMaterial: ecdhSecret, salt: authSecret)
        let inputKey = HKDF<SHA256>.expand(pseudoRandomKey: authKey, info: keyInfo, outputByteCount: 32)
        let pseudoRandomKey = HKDF<SHA256>.extract(inputKeyMaterial: inputKey, salt: salt)
        let contentKey = HKDF<SHA256>.expand(
            pseudoRandomKey: pseudoRandomKey, info: Array("Content-Encoding: aes128gcm".utf8) + [0],
            outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(
            pseudoRandomKey: pseudoRandomKey, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        return DerivedKeys(
            contentKey: contentKey.withUnsafeBytes { Array($0) }, nonce: nonce.withUnsafeBytes { Array($0) })
    }

    /// Whether `p256dh` is an uncompressed point on P-256 (SPEC 10.1: a subscription whose key is not is ignored).
    public static func isCurvePoint(_ p256dh: [UInt8]) -> Bool {
        p256dh.count == 65 && p256dh.first == 0x04
            && (try? P256.KeyAgreement.PublicKey(x963Representation: p256dh)) != nil
    }
}
