/// What a platform's sender is given: one record for one device, or for a broadcast (SPEC 10.2).
public struct DevicePush: Sendable {
    /// The record to send.
    public var record: DeliveredRecord
    /// The device, or `nil` for an APNs broadcast (the record's `apns-channel-id`).
    public var device: Device?

    /// Creates a push.
    public init(record: DeliveredRecord, device: Device?) {
        self.record = record
        self.device = device
    }
}

/// Posts one push to a platform's push service and classifies the answer (SPEC 10.3 to 10.6).
///
/// A sender makes exactly one request per call (a renewed credential may add one retry of the same
/// request, as 10.3 and 10.4 say); the worker owns back-off, expiry and pauses.
public protocol PushSender: Sendable {
    /// The platform this sender posts to.
    var platform: Platform { get }
    /// Sends `push` once and says what came of it. Never throws: every failure is a ``PushAnswer``.
    func send(_ push: DevicePush) async -> PushAnswer
    /// The credentials `push` is sent with, as ``PauseKey/scope`` names them (SPEC 10.6: FCM's project, web push's
    /// VAPID key); by default the device's `app`.
    func pauseScope(of push: DevicePush) -> String?
}

extension PushSender {
    /// The device's `app`: the credentials are those the device names.
    public func pauseScope(of push: DevicePush) -> String? { push.device?.app }
}
