/// The request SPEC 10.3 makes of a push: where it goes and every header but `authorization` (which the sender
/// adds with the current provider token). A pure function of the push and the configuration.
public struct APNsRequest: Sendable {
    /// The headers copied from a record, when present, to a device push.
    public static let copiedHeaders = ["apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id"]
    /// The headers copied from a record, when present, to a broadcast.
    public static let copiedBroadcastHeaders = [
        "apns-channel-id", "apns-push-type", "apns-priority", "apns-expiration",
    ]

    /// The URL: `ENDPOINT/3/device/TOKEN` or `ENDPOINT/4/broadcasts/apps/BUNDLE_ID`.
    public var url: String
    /// The headers, in order, without `authorization`.
    public var headers: [(name: String, value: String)]
    /// The body: the record's value, byte for byte.
    public var body: [UInt8]
    /// The `apns-id` header sent (`nil` for a broadcast, which has none).
    public var apnsID: String?

    /// Why a push cannot be made into a request: a final `rejected` outcome with pushgate's own reason.
    public enum Refusal: String, Error, Sendable, Hashable {
        /// Neither the device nor `--apns-bundle-id` names the app (for a broadcast: no `--apns-bundle-id`).
        case noApp = "no_app"
        /// A header copied from the record has bytes a header value cannot carry (control characters, non-ASCII).
        case invalidHeader = "invalid_header"
        /// The device's token is not hex (the directory lets no such token through).
        case invalidToken = "invalid_token"
        /// The device is not an APNs device, or a push without a device has no `apns-channel-id`.
        case notAPNs = "not_apns"
    }

    /// The request for `push`, or why there is none.
    public static func make(for push: DevicePush, configuration: APNsConfiguration) -> Result<APNsRequest, Refusal> {
        guard let device = push.device else { return broadcast(push.record, configuration: configuration) }
        guard case .apns(let written, let environment) = device.address else { return .failure(.notAPNs) }
        guard let app = device.app ?? configuration.bundleID else { return .failure(.noApp) }
        let token = written.lowercased()
        guard !token.isEmpty, token.utf8.count % 2 == 0, token.utf8.allSatisfy(isLowercaseHex) else {
            return .failure(.invalidToken)
        }
        let copied: [(name: String, value: String)]
        switch copy(APNsRequest.copiedHeaders, from: push.record) {
        case .success(let headers): copied = headers
        case .failure(let refusal): return .failure(refusal)
        }
        let isLiveActivity = copied.first(where: { $0.name == "apns-push-type" })?.value == "liveactivity"
        let topic = app + (isLiveActivity ? ".push-type.liveactivity" : "")
        guard isHeaderValue(Array(topic.utf8)) else { return .failure(.invalidHeader) }
        let apnsID = APNsMessageID.make(for: push.record, deviceID: device.id)
        let endpoint = environment == .development ? configuration.sandboxEndpoint : configuration.productionEndpoint
        return .success(
            APNsRequest(
                url: endpoint.base + "/3/device/" + token,
                headers: [(name: "apns-topic", value: topic)] + copied + [(name: "apns-id", value: apnsID)],
                body: push.record.value, apnsID: apnsID))
    }

    private static func broadcast(_ record: DeliveredRecord, configuration: APNsConfiguration) -> Result<
        APNsRequest, Refusal
    > {
        guard record.headers.contains(where: { $0.name == "apns-channel-id" }) else { return .failure(.notAPNs) }
        guard let bundleID = configuration.bundleID else { return .failure(.noApp) }
        return copy(copiedBroadcastHeaders, from: record).map { headers in
            APNsRequest(
                url: configuration.productionEndpoint.base + "/4/broadcasts/apps/" + bundleID, headers: headers,
                body: record.value, apnsID: nil)
        }
    }

    /// The first header of each name in `names` that the record has, in the order of `names`.
    private static func copy(_ names: [String], from record: DeliveredRecord) -> Result<
        [(name: String, value: String)], Refusal
    > {
        var copied: [(name: String, value: String)] = []
        for name in names {
            guard let header = record.headers.first(where: { $0.name == name }) else { continue }
            guard isHeaderValue(header.value) else { return .failure(.invalidHeader) }
            copied.append((name: name, value: String(decoding: header.value, as: UTF8.self)))
        }
        return .success(copied)
    }

    /// Visible ASCII, with spaces and tabs inside but not at either end (RFC 9110 field-value, without obs-text).
    static func isHeaderValue(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return true }
        let isVisible: (UInt8) -> Bool = { $0 > 0x20 && $0 < 0x7F }
        return isVisible(first) && isVisible(last) && bytes.allSatisfy { isVisible($0) || $0 == 0x20 || $0 == 0x09 }
    }

    private static func isLowercaseHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
