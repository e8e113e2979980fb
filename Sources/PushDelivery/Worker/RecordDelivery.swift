import Logging
import PushModel
import PushgateTracing

/// What one delivered record becomes (SPEC 10.2): its devices from the directory (or a broadcast, a dry
/// run, `no_device`), each sent until it has a final outcome, each outcome counted, a `gone` device marked
/// in the directory, and the receipts that ``ReceiptSelection`` selects written and acknowledged.
public struct RecordDelivery: Sendable {
    let attempts: PushAttempts
    let directory: any DeviceLookup
    let receipts: any ReceiptWriter
    let selection: ReceiptSelection
    /// `--apns-bundle-id`: the app of broadcasts and of APNs devices without one.
    let bundleID: String?
    let metrics: DeliveryMetrics
    let logger: Logger
    /// Makes the records' spans (SPEC section 11); `nil`: tracing is off.
    let tracer: RecordTracer?
    /// The consumer group, on the records' spans.
    let group: String?

    /// Creates the delivery of records through `attempts` to the devices of `directory`.
    public init(
        attempts: PushAttempts, directory: any DeviceLookup, receipts: any ReceiptWriter, selection: ReceiptSelection,
        bundleID: String?, metrics: DeliveryMetrics, logger: Logger, tracer: RecordTracer? = nil,
        group: String? = nil
    ) {
        self.attempts = attempts
        self.directory = directory
        self.receipts = receipts
        self.selection = selection
        self.bundleID = bundleID
        self.metrics = metrics
        self.logger = logger
        self.tracer = tracer
        self.group = group
    }

    /// Delivers `record` to each of its devices; returns `true` once every one has a final outcome and
    /// every selected receipt is acknowledged, `false` when the task was cancelled before (shutdown: the
    /// record stays uncommitted and is read again).
    /// - Throws: the error of a receipt that cannot be written.
    public func deliver(_ record: DeliveredRecord) async throws -> Bool {
        guard let platform = Platform(delivering: record.format) else {
            logger.warning("\(record.coordinates): format \(record.format.rawValue) is not delivered; skipped")
            return true
        }
        let expiry = RecordExpiry(of: record)
        let dryRun = record.header("pushgate-dry-run") == "true" && platform != .fcm
        if platform == .apns, record.format == .apns, let channel = record.header("apns-channel-id") {
            return try await deliverBroadcast(record, channel: channel, dryRun: dryRun, expiry: expiry)
        }
        let devices = record.key.map { directory.devices(audience: $0, platform: platform) } ?? []
        guard !devices.isEmpty else {
            let answer = FinalAnswer(
                outcome: .noDevice, details: AnswerDetails(), attempts: 0, atMilliseconds: attempts.wallClock())
            try await finish(record, platform: platform, device: nil, key: record.key, answer: answer)
            return true
        }
        return try await withThrowingTaskGroup(of: Bool.self) { group in
            for device in devices {
                group.addTask {
                    let answer: FinalAnswer?
                    if dryRun {
                        answer = FinalAnswer(
                            outcome: .dryRun, details: AnswerDetails(), attempts: 0,
                            atMilliseconds: attempts.wallClock())
                    } else {
                        answer = await attempts.deliver(
                            DevicePush(record: record, device: device), platform: platform, expiry: expiry)
                    }
                    guard let answer else { return false }
                    if answer.outcome == .gone { directory.markGone(device: device) }
                    try await finish(record, platform: platform, device: device, key: device.id, answer: answer)
                    return true
                }
            }
            var finished = true
            for try await done in group where !done { finished = false }
            return finished
        }
    }

    /// An `apns` record with `apns-channel-id`: one push to the broadcast endpoint of `--apns-bundle-id`.
    private func deliverBroadcast(
        _ record: DeliveredRecord, channel: String, dryRun: Bool, expiry: RecordExpiry
    ) async throws -> Bool {
        let answer: FinalAnswer?
        if bundleID == nil {
            answer = FinalAnswer(
                outcome: .rejected, details: AnswerDetails(reason: "no_app"), attempts: 0,
                atMilliseconds: attempts.wallClock())
        } else if dryRun {
            answer = FinalAnswer(
                outcome: .dryRun, details: AnswerDetails(), attempts: 0, atMilliseconds: attempts.wallClock())
        } else {
            answer = await attempts.deliver(DevicePush(record: record, device: nil), platform: .apns, expiry: expiry)
        }
        guard let answer else { return false }
        try await finish(record, platform: .apns, device: nil, key: channel, answer: answer)
        return true
    }

    /// Counts the outcome and writes its receipt when selected.
    private func finish(
        _ record: DeliveredRecord, platform: Platform, device: Device?, key: String?, answer: FinalAnswer
    ) async throws {
        metrics.recordOutcome(platform: platform, outcome: answer.outcome, reason: answer.details.reason)
        guard selection.selects(answer.outcome) else { return }
        var receipt = receipt(of: record, platform: platform, device: device, key: key, answer: answer)
        // The record span's `traceparent` and `tracestate` (SPEC section 11), when tracing is on.
        receipt.trace = RecordTrace.current?.headers
        try await receipts.write(receipt)
    }

    /// The receipt of `answer` (SPEC 10.7).
    func receipt(
        of record: DeliveredRecord, platform: Platform, device: Device?, key: String?, answer: FinalAnswer
    ) -> Receipt {
        let isBroadcast = device == nil && answer.outcome != .noDevice
        let details = answer.details
        return Receipt(
            key: key, outcome: answer.outcome, platform: platform, device: device?.id,
            audience: device?.audience ?? (isBroadcast ? nil : record.key),
            app: device.map { device in
                device.app
                    ?? (platform == .apns
                        ? bundleID : attempts.app(of: DevicePush(record: record, device: device), platform: platform))
            } ?? (isBroadcast ? bundleID : nil),
            record: record.coordinates, source: record.header("pushgate-source"), id: record.header("pushgate-id"),
            format: record.format.rawValue, status: details.status, reason: details.reason,
            goneSince: details.goneSince, attempts: answer.attempts, at: answer.atMilliseconds,
            apnsID: details.apnsID, messageID: details.messageID, location: details.location)
    }
}
