import PushDelivery
import PushModel
import Synchronization

/// Records and devices for the APNs sender's unit tests.
enum APNsSamples {
    static let token = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"

    static func record(
        value: String = #"{"aps":{"alert":"Hello"}}"#, headers: [(String, String)] = defaultHeaders,
        format: OutputFormat = .apns
    ) -> DeliveredRecord {
        DeliveredRecord(
            topic: "push.apns", partition: 0, offset: 7, key: "user-1", value: Array(value.utf8),
            headers: headers.map { (name: $0.0, value: Array($0.1.utf8)) }, timestampMilliseconds: 0, format: format)
    }

    static let defaultHeaders = [
        ("pushgate-id", "p-1"), ("pushgate-format", "apns"), ("pushgate-source", "push.unified:0:42"),
        ("apns-push-type", "alert"), ("apns-priority", "10"), ("apns-expiration", "1900000000"),
        ("apns-collapse-id", "order-1"),
    ]

    static func device(
        id: String = "device-1", token: String = token, environment: APNsEnvironment = .production,
        app: String? = "com.example.shop"
    ) -> Device {
        Device(id: id, audience: "user-1", app: app, address: .apns(token: token, environment: environment))
    }
}

/// A clock tests move by hand: seconds since 1970.
final class ManualClock: Sendable {
    private let seconds: Mutex<Int64>

    init(_ start: Int64 = 1_800_000_000) { seconds = Mutex(start) }

    var now: Int64 { seconds.withLock { $0 } }
    func advance(by delta: Int64) { seconds.withLock { $0 += delta } }
    var function: @Sendable () -> Int64 { { self.now } }
}
