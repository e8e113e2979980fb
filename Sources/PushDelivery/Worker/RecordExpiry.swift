import Foundation
import PushModel

/// The time a delivered record may still be sent (SPEC 10.6): from `apns-expiration` (seconds since
/// 1970), from the record's timestamp plus `webpush-ttl` (seconds), or plus the `fcm` value's
/// `android.ttl` (`"3.5s"`). A value of 0 means one attempt: an answer that is not final is `expired`.
public enum RecordExpiry: Sendable, Hashable {
    /// The record sets no expiry of its own (`--give-up-after` still applies).
    case none
    /// One attempt only (an expiry of 0).
    case oneAttempt
    /// No attempt after this time, in ms since 1970.
    case at(milliseconds: Int64)

    /// The expiry `record` carries for its format.
    public init(of record: DeliveredRecord) {
        switch record.format {
        case .apns, .adobeCarousel, .fbCard:
            guard let seconds = record.header("apns-expiration").flatMap(Self.wholeNumber) else {
                self = .none
                return
            }
            self = seconds == 0 ? .oneAttempt : .at(milliseconds: Self.multiplied(seconds, by: 1000))
        case .webpush:
            guard let seconds = record.header("webpush-ttl").flatMap(Self.wholeNumber) else {
                self = .none
                return
            }
            self = Self.relative(milliseconds: Self.multiplied(seconds, by: 1000), to: record)
        case .fcm:
            guard let milliseconds = Self.androidTTLMilliseconds(record.value) else {
                self = .none
                return
            }
            self = Self.relative(milliseconds: milliseconds, to: record)
        case .androidExpandable:
            self = .none
        }
    }

    /// Whether no attempt may start at `nowMilliseconds` (ms since 1970).
    public func hasPassed(atMilliseconds nowMilliseconds: Int64) -> Bool {
        guard case .at(let milliseconds) = self else { return false }
        return nowMilliseconds >= milliseconds
    }

    private static func relative(milliseconds: Int64, to record: DeliveredRecord) -> RecordExpiry {
        milliseconds == 0
            ? .oneAttempt
            : .at(
                milliseconds: record.timestampMilliseconds.addingReportingOverflow(milliseconds).overflow
                    ? Int64.max : record.timestampMilliseconds + milliseconds)
    }

    private static func multiplied(_ value: Int64, by factor: Int64) -> Int64 {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? Int64.max : product
    }

    /// A non-negative decimal integer without sign or spaces, as the headers write it.
    static func wholeNumber(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(text) ?? Int64.max
    }

    /// `message.android.ttl` of an `fcm` value, in ms: protobuf's JSON duration, seconds with up to nine
    /// fractional digits and an `s` (`"3.5s"`, `"0s"`); `nil` when absent or not a duration.
    static func androidTTLMilliseconds(_ value: [UInt8]) -> Int64? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(value)) as? [String: Any],
            let message = object["message"] as? [String: Any], let android = message["android"] as? [String: Any],
            let ttl = android["ttl"] as? String, ttl.hasSuffix("s")
        else { return nil }
        let number = ttl.dropLast()
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, let seconds = wholeNumber(String(whole)) else { return nil }
        var milliseconds = multiplied(seconds, by: 1000)
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 9, fraction.utf8.allSatisfy({ (0x30...0x39).contains($0) })
            else { return nil }
            let padded = (fraction + "000").prefix(3)
            milliseconds += Int64(padded) ?? 0
            // A rest below one millisecond still counts: "0.0001s" is not one attempt.
            if milliseconds == 0, fraction.contains(where: { $0 != "0" }) { milliseconds = 1 }
        }
        return milliseconds
    }
}
