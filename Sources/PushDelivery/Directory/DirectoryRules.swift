/// What of the command line changes the rules of a directory value (SPEC 10.1): when `app` is required.
public struct DirectoryRules: Sendable, Hashable {
    /// Whether `--apns-bundle-id` is given: then an `apns` device may leave out `app`. Default: `false`.
    public var apnsBundleIDGiven: Bool
    /// How many `--fcm-credentials` are given: with more than one, an `fcm` device must name its project
    /// in `app`. Default: 0.
    public var fcmCredentialCount: Int
    /// How many `--vapid-key` are given: with more than one, a `webpush` device must name its key in
    /// `app`. Default: 0.
    public var vapidKeyCount: Int

    /// Creates the rules.
    public init(apnsBundleIDGiven: Bool = false, fcmCredentialCount: Int = 0, vapidKeyCount: Int = 0) {
        self.apnsBundleIDGiven = apnsBundleIDGiven
        self.fcmCredentialCount = fcmCredentialCount
        self.vapidKeyCount = vapidKeyCount
    }

    /// Whether a device of `platform` must have an `app`.
    public func requiresApp(on platform: Platform) -> Bool {
        switch platform {
        case .apns: !apnsBundleIDGiven
        case .fcm: fcmCredentialCount > 1
        case .webpush: vapidKeyCount > 1
        }
    }
}

/// The first rule of SPEC 10.1 a directory record breaks: where, and which rule. It never holds a token,
/// a key or any other value of the record, only the place and the rule.
public struct DirectoryViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// What part of the record breaks the rule.
    public enum Place: Sendable, Hashable {
        /// The record's key (the device id).
        case key
        /// The value, at a JSON Pointer (`""`: the whole value, `/apns/token`: the token).
        case value(pointer: String)
    }

    /// Where the rule is broken.
    public var place: Place
    /// The rule, as a phrase about that place ("must be 1..512 UTF-8 bytes").
    public var rule: String

    /// Creates a violation.
    public init(_ place: Place, _ rule: String) {
        self.place = place
        self.rule = rule
    }

    /// A violation in the value, at `pointer`.
    static func value(_ pointer: String, _ rule: String) -> DirectoryViolation {
        DirectoryViolation(.value(pointer: pointer), rule)
    }

    /// `key: RULE`, `value: RULE` or `POINTER: RULE`.
    public var description: String {
        switch place {
        case .key: "key: \(rule)"
        case .value(let pointer): "\(pointer.isEmpty ? "value" : pointer): \(rule)"
        }
    }
}

/// What one record of the directory topic says (SPEC 10.1).
public enum DirectoryEntry: Sendable, Hashable {
    /// A valid value: the device, as of this record.
    case device(Device)
    /// A `null` value: the device with this id is gone from the directory.
    case tombstone(id: String)
    /// A value (or key) that breaks a rule: the device with this id, if the key is one, receives nothing
    /// until a valid value comes.
    case invalid(id: String?, DirectoryViolation)

    /// The device id the record is about (`nil` for a record whose key is not a device id).
    public var id: String? {
        switch self {
        case .device(let device): device.id
        case .tombstone(let id): id
        case .invalid(let id, _): id
        }
    }
}
