/// One device of the directory (SPEC 10.1): a valid value of `push.devices` under its key.
public struct Device: Sendable, Hashable {
    /// The record's key: the application's id for the device, 1 to 512 UTF-8 bytes.
    public var id: String
    /// The key of the output records this device receives.
    public var audience: String
    /// For `apns` the bundle id, for `fcm` the Firebase project id, for `webpush` the VAPID key's name;
    /// `nil` when the value has none (a default from the command line may apply).
    public var app: String?
    /// Where the platform reaches the device.
    public var address: Address

    /// The platform the device is registered on.
    public var platform: Platform { address.platform }

    /// Creates a device.
    public init(id: String, audience: String, app: String?, address: Address) {
        self.id = id
        self.audience = audience
        self.app = app
        self.address = address
    }

    /// Where a platform reaches a device: what the push service needs besides the payload.
    public enum Address: Sendable, Hashable {
        /// An APNs device token (lowercase hex) and the environment whose endpoint serves it.
        case apns(token: String, environment: APNsEnvironment)
        /// An FCM registration token.
        case fcm(token: String)
        /// A browser's push subscription (RFC 8030 endpoint and RFC 8291 keys, decoded).
        case webpush(WebPushSubscription)

        /// The platform of this address.
        public var platform: Platform {
            switch self {
            case .apns: .apns
            case .fcm: .fcm
            case .webpush: .webpush
            }
        }
    }
}

/// Which APNs endpoint serves a device token (SPEC 10.1, 10.3).
public enum APNsEnvironment: String, Sendable, Hashable {
    /// `api.push.apple.com`: apps signed for distribution.
    case production
    /// `api.sandbox.push.apple.com`: development builds.
    case development
}

/// A browser's push subscription as `PushSubscription.toJSON()` gives it, decoded (SPEC 10.1).
public struct WebPushSubscription: Sendable, Hashable {
    /// The push service's absolute URL for this subscription, as written.
    public var endpoint: String
    /// The user agent's public key: a 65-byte uncompressed P-256 point.
    public var p256dh: [UInt8]
    /// The 16-byte authentication secret.
    public var auth: [UInt8]

    /// Creates a subscription from decoded keys.
    public init(endpoint: String, p256dh: [UInt8], auth: [UInt8]) {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
    }
}
