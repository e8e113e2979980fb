import Crypto
import Foundation
import Synchronization

/// The VAPID tokens of one key (RFC 8292, SPEC 10.5): an ES256 JWT per push-service origin, header
/// `{"typ":"JWT","alg":"ES256"}`, claims `{"aud":ORIGIN,"exp":SECONDS,"sub":SUBJECT}`, sent as
/// `Authorization: vapid t=JWT, k=PUBLIC_KEY`. A token lives ``lifetime`` and is reused for its origin until
/// ``renewalMargin`` before its `exp`; one a push service refused is dropped (``invalidate(_:origin:)``), so the next
/// request signs a new one. Safe to share between tasks.
public final class VAPIDToken: Sendable {
    /// How far ahead `exp` is: 12 hours (RFC 8292 allows at most 24; a clock ahead of the push service's by up to
    /// 12 hours still gives tokens it takes).
    public static let lifetime: Int64 = 12 * 3600
    /// How long before its `exp` a token is no longer used: one hour (SPEC 10.5).
    public static let renewalMargin: Int64 = 3600
    /// The most origins whose tokens are kept; past it, the oldest are forgotten.
    static let cachedOrigins = 1024

    private struct Cached {
        var token: String
        var expiresAt: Int64
    }

    /// The key's public point, uncompressed (65 bytes), base64url: the header's `k`.
    public let publicKey: String
    /// The key's 32 bytes: swift-crypto's key type is not `Sendable`; a key is made of them for each signature.
    private let keyBytes: [UInt8]
    private let subject: String
    private let clock: @Sendable () -> Int64
    private let cache = Mutex([String: Cached]())

    /// Creates the token source of `key`, signing for `subject` (`--vapid-subject`); `now` gives the seconds since
    /// 1970 (the system clock; tests pass their own).
    public init(
        key: P256.Signing.PrivateKey, subject: String,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.keyBytes = Array(key.rawRepresentation)
        self.publicKey = Base64URLCoding.encode(Array(key.publicKey.x963Representation))
        self.subject = subject
        self.clock = now
    }

    /// The token for `origin` (`https://HOST[:PORT]`): the cached one, or a new one.
    public func token(for origin: String) throws -> String {
        let now = clock()
        if let cached = cache.withLock({ $0[origin] }), now < cached.expiresAt - Self.renewalMargin,
            now >= cached.expiresAt - Self.lifetime
        {
            return cached.token
        }
        let expiresAt = now + Self.lifetime
        let token = try sign(audience: origin, expiresAt: expiresAt)
        cache.withLock { cache in
            if cache.count >= Self.cachedOrigins {
                cache = cache.filter { now < $0.value.expiresAt - Self.renewalMargin }
                if cache.count >= Self.cachedOrigins { cache.removeAll() }
            }
            cache[origin] = Cached(token: token, expiresAt: expiresAt)
        }
        return token
    }

    /// Forgets `token` for `origin` (a push service refused it): the next request signs a new one. A newer token
    /// made meanwhile is kept.
    public func invalidate(_ token: String, origin: String) {
        cache.withLock { cache in
            if cache[origin]?.token == token { cache[origin] = nil }
        }
    }

    /// The `Authorization` header's value for `token`.
    public func authorization(_ token: String) -> String {
        "vapid t=\(token), k=\(publicKey)"
    }

    private func sign(audience: String, expiresAt: Int64) throws -> String {
        let header = Base64URLCoding.encode(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let claims = Base64URLCoding.encode(
            Array(
                ("{\"aud\":\(APNsProviderToken.jsonString(audience)),\"exp\":\(expiresAt),"
                    + "\"sub\":\(APNsProviderToken.jsonString(subject))}").utf8))
        let signingInput = header + "." + claims
        let key = try P256.Signing.PrivateKey(rawRepresentation: keyBytes)
        let signature = try key.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URLCoding.encode(signature.rawRepresentation)
    }
}
