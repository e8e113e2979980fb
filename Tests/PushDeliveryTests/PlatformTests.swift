import PushDelivery
import PushModel
import Testing

/// Which platform delivers which format (SPEC 10, 10.2) and which outcomes are failures (10.7).
struct PlatformTests {
    @Test func everyFormatButAndroidExpandableHasAPlatform() {
        #expect(Platform.apns.formats == [.apns, .adobeCarousel, .fbCard])
        #expect(Platform.fcm.formats == [.fcm])
        #expect(Platform.webpush.formats == [.webpush])
        #expect(Platform(delivering: .androidExpandable) == nil)
    }

    @Test func failuresAreGoneRejectedAndExpired() {
        #expect(Set(Outcome.allCases.filter(\.isFailure)) == [.gone, .rejected, .expired])
        #expect(Outcome.dryRun.rawValue == "dry_run" && Outcome.noDevice.rawValue == "no_device")
    }

    @Test func aRecordNamesItsCoordinatesAndHeaders() {
        let record = DeliveredRecord(
            topic: "push.apns", partition: 2, offset: 41, key: "user-1", value: Array("{}".utf8),
            headers: [(name: "apns-push-type", value: Array("alert".utf8))], timestampMilliseconds: 0,
            format: .apns)
        #expect(record.coordinates == "push.apns:2:41")
        #expect(record.header("apns-push-type") == "alert")
        #expect(record.header("apns-priority") == nil)
    }
}
