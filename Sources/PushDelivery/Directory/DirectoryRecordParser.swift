/// Reads one record of the directory topic as SPEC 10.1 says: a device, a tombstone, or the first rule
/// the record breaks. The rules are checked in this order: the key; the value is JSON and an object;
/// `audience`; `platform`; `app`; the platform's own member (`apns`, `fcm` or `webpush`). What the spec
/// leaves open is decided in docs/decisions.md ("The device directory").
public struct DirectoryRecordParser: Sendable {
    /// When `app` is required.
    public var rules: DirectoryRules

    /// The longest device id and audience, in UTF-8 bytes.
    public static let maximumIDBytes = 512
    /// The decoded length of an APNs device token, in bytes.
    public static let apnsTokenBytes = 32...200
    /// The length of an FCM registration token, in Unicode scalars.
    public static let fcmTokenLength = 1...4096

    /// Creates a parser with `rules`.
    public init(rules: DirectoryRules = DirectoryRules()) {
        self.rules = rules
    }

    /// What the record with `key` and `value` (`nil`: a null value, a tombstone) says.
    public func entry(key: [UInt8]?, value: [UInt8]?) -> DirectoryEntry {
        guard let key else { return .invalid(id: nil, DirectoryViolation(.key, "is missing (a null key)")) }
        guard let id = String(validating: key, as: UTF8.self) else {
            return .invalid(id: nil, DirectoryViolation(.key, "is not valid UTF-8"))
        }
        guard (1...Self.maximumIDBytes).contains(key.count) else {
            return .invalid(id: nil, DirectoryViolation(.key, "must be 1..512 UTF-8 bytes"))
        }
        guard let value else { return .tombstone(id: id) }
        do throws(DirectoryViolation) {
            return .device(try device(id: id, value: value))
        } catch {
            return .invalid(id: id, error)
        }
    }

    /// The device that `value` describes under the key `id` (already checked).
    func device(id: String, value: [UInt8]) throws(DirectoryViolation) -> Device {
        let json: DirectoryJSON
        do {
            json = try DirectoryJSON.read(value)
        } catch {
            throw .value(error.pointer, error.message)
        }
        guard case .object = json else { throw .value("", "must be a JSON object or null") }
        let audience = try requiredString(json, "audience")
        guard (1...Self.maximumIDBytes).contains(audience.utf8.count) else {
            throw .value("/audience", "must be 1..512 UTF-8 bytes")
        }
        guard let platformName = try optionalString(json, "platform") else { throw .value("/platform", "is required") }
        guard let platform = Platform(rawValue: platformName) else {
            throw .value("/platform", "must be apns, fcm or webpush")
        }
        let app = try optionalString(json, "app")
        if app?.isEmpty == true { throw .value("/app", "must not be empty") }
        if app == nil && rules.requiresApp(on: platform) { throw .value("/app", appRequirement(platform)) }
        let member = try requiredObject(json, platform.rawValue, pointer: "/\(platform.rawValue)")
        let address: Device.Address
        switch platform {
        case .apns: address = try apnsAddress(member)
        case .fcm: address = try fcmAddress(member)
        case .webpush: address = try webPushAddress(member)
        }
        return Device(id: id, audience: audience, app: app, address: address)
    }

    private func appRequirement(_ platform: Platform) -> String {
        switch platform {
        case .apns: "is required (the app's bundle id) when --apns-bundle-id is not given"
        case .fcm: "is required (the Firebase project id) when more than one --fcm-credentials is given"
        case .webpush: "is required (the VAPID key's name) when more than one --vapid-key is given"
        }
    }

    private func apnsAddress(_ apns: DirectoryJSON) throws(DirectoryViolation) -> Device.Address {
        let token = try requiredString(apns, "token", pointer: "/apns/token")
        let hex = Array(token.utf8)
        guard hex.allSatisfy({ HexDigits.value(of: $0) != nil }) else {
            throw .value("/apns/token", "must be hexadecimal digits (0-9, a-f, A-F)")
        }
        guard hex.count.isMultiple(of: 2) else { throw .value("/apns/token", "must have an even number of digits") }
        guard Self.apnsTokenBytes.contains(hex.count / 2) else {
            throw .value("/apns/token", "must be 32..200 bytes once decoded (64..400 hex digits)")
        }
        let environment: APNsEnvironment
        switch try optionalString(apns, "environment", pointer: "/apns/environment") {
        case nil: environment = .production
        case let name?:
            guard let named = APNsEnvironment(rawValue: name) else {
                throw .value("/apns/environment", "must be production or development")
            }
            environment = named
        }
        return .apns(token: token.lowercased(), environment: environment)
    }

    private func fcmAddress(_ fcm: DirectoryJSON) throws(DirectoryViolation) -> Device.Address {
        let token = try requiredString(fcm, "token", pointer: "/fcm/token")
        guard Self.fcmTokenLength.contains(token.unicodeScalars.count) else {
            throw .value("/fcm/token", "must be 1..4096 characters")
        }
        return .fcm(token: token)
    }

    private func webPushAddress(_ webpush: DirectoryJSON) throws(DirectoryViolation) -> Device.Address {
        let subscription = try requiredObject(webpush, "subscription", pointer: "/webpush/subscription")
        let endpoint = try requiredString(subscription, "endpoint", pointer: "/webpush/subscription/endpoint")
        guard AbsoluteURL.isAbsolute(endpoint) else {
            throw .value("/webpush/subscription/endpoint", "must be an absolute URL")
        }
        let keys = try requiredObject(subscription, "keys", pointer: "/webpush/subscription/keys")
        let p256dhPointer = "/webpush/subscription/keys/p256dh"
        let p256dhText = try requiredString(keys, "p256dh", pointer: p256dhPointer)
        guard let p256dh = Base64URLCoding.decode(p256dhText) else { throw .value(p256dhPointer, "must be base64url") }
        guard p256dh.count == 65, p256dh.first == 0x04 else {
            throw .value(p256dhPointer, "must be a 65-byte uncompressed P-256 point (first byte 0x04)")
        }
        guard WebPushEncryption.isCurvePoint(p256dh) else { throw .value(p256dhPointer, "must be a point on P-256") }
        let authPointer = "/webpush/subscription/keys/auth"
        guard let auth = Base64URLCoding.decode(try requiredString(keys, "auth", pointer: authPointer)) else {
            throw .value(authPointer, "must be base64url")
        }
        guard auth.count == 16 else { throw .value(authPointer, "must be 16 bytes once decoded") }
        return .webpush(WebPushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth))
    }

    // MARK: Members

    /// The member `name` of `object` as a string; `nil` when absent or `null`.
    private func optionalString(_ object: DirectoryJSON, _ name: String, pointer: String? = nil)
        throws(DirectoryViolation) -> String?
    {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw .value(pointer ?? "/\(name)", "must be a string")
        }
    }

    private func requiredString(_ object: DirectoryJSON, _ name: String, pointer: String? = nil)
        throws(DirectoryViolation) -> String
    {
        guard let text = try optionalString(object, name, pointer: pointer) else {
            throw .value(pointer ?? "/\(name)", "is required")
        }
        return text
    }

    private func requiredObject(_ object: DirectoryJSON, _ name: String, pointer: String)
        throws(DirectoryViolation) -> DirectoryJSON
    {
        switch object[name] {
        case nil, .null?: throw .value(pointer, "is required")
        case let member? where member.isObject: return member
        default: throw .value(pointer, "must be an object")
        }
    }
}

extension DirectoryJSON {
    var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}
