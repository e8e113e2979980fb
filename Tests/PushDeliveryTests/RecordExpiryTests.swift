import PushDelivery
import PushModel
import Testing

/// A record's expiry (SPEC 10.6): apns-expiration, webpush-ttl and the fcm value's android.ttl.
struct RecordExpiryTests {
    private func record(
        _ format: OutputFormat, headers: [(String, String)] = [], value: String = "{}", timestamp: Int64 = 1_000_000
    ) -> DeliveredRecord {
        DeliveredRecord(
            topic: format.defaultTopic, partition: 0, offset: 0, key: "user-1", value: Array(value.utf8),
            headers: headers.map { (name: $0.0, value: Array($0.1.utf8)) }, timestampMilliseconds: timestamp,
            format: format)
    }

    @Test func apnsExpirationIsSecondsSince1970AndZeroIsOneAttempt() {
        #expect(
            RecordExpiry(of: record(.apns, headers: [("apns-expiration", "1700000000")]))
                == .at(milliseconds: 1_700_000_000_000))
        #expect(RecordExpiry(of: record(.fbCard, headers: [("apns-expiration", "0")])) == .oneAttempt)
        #expect(RecordExpiry(of: record(.adobeCarousel)) == RecordExpiry.none)
        #expect(RecordExpiry(of: record(.apns, headers: [("apns-expiration", "-5")])) == RecordExpiry.none)
        #expect(RecordExpiry(of: record(.apns, headers: [("apns-expiration", " 5")])) == RecordExpiry.none)
    }

    @Test func webpushTTLCountsFromTheRecordsTimestamp() {
        #expect(RecordExpiry(of: record(.webpush, headers: [("webpush-ttl", "60")])) == .at(milliseconds: 1_060_000))
        #expect(RecordExpiry(of: record(.webpush, headers: [("webpush-ttl", "0")])) == .oneAttempt)
        #expect(RecordExpiry(of: record(.webpush)) == RecordExpiry.none)
    }

    @Test func fcmAndroidTTLIsAProtobufDurationFromTheTimestamp() {
        func fcm(_ ttl: String) -> RecordExpiry {
            RecordExpiry(of: record(.fcm, value: #"{"message":{"android":{"ttl":"\#(ttl)"},"data":{}}}"#))
        }
        #expect(fcm("3.5s") == .at(milliseconds: 1_003_500))
        #expect(fcm("86400s") == .at(milliseconds: 87_400_000))
        #expect(fcm("0s") == .oneAttempt)
        #expect(fcm("0.000000001s") == .at(milliseconds: 1_000_001))
        #expect(fcm("3.5") == RecordExpiry.none)
        #expect(fcm("s") == RecordExpiry.none)
        #expect(fcm("1.s") == RecordExpiry.none)
        #expect(RecordExpiry(of: record(.fcm, value: #"{"message":{"data":{}}}"#)) == RecordExpiry.none)
        #expect(RecordExpiry(of: record(.fcm, value: "not json")) == RecordExpiry.none)
    }

    @Test func anExpiryHasPassedFromItsMillisecondOn() {
        let expiry = RecordExpiry.at(milliseconds: 5000)
        #expect(!expiry.hasPassed(atMilliseconds: 4999))
        #expect(expiry.hasPassed(atMilliseconds: 5000))
        #expect(!RecordExpiry.oneAttempt.hasPassed(atMilliseconds: .max))
        #expect(!RecordExpiry.none.hasPassed(atMilliseconds: .max))
    }
}
