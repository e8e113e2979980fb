/// What the delivery worker is given to deliver with: the seam between the worker and the directory and
/// senders, built by whoever starts it (`pushgate deliver`, tests).
public struct DeliveryServices: Sendable {
    /// The device directory.
    public var directory: any DeviceLookup
    /// Returns once the directory has been read up to the end offsets it found at its start (SPEC 10.1):
    /// the worker reads no delivered record before, and `/ready` answers 503 until then. Throws
    /// `CancellationError` when cancelled first.
    public var directoryCaughtUp: @Sendable () async throws -> Void
    /// One sender per enabled platform.
    public var senders: [any PushSender]

    /// Creates the services.
    public init(
        directory: any DeviceLookup, directoryCaughtUp: @escaping @Sendable () async throws -> Void,
        senders: [any PushSender]
    ) {
        self.directory = directory
        self.directoryCaughtUp = directoryCaughtUp
        self.senders = senders
    }
}
