import PushDelivery
import Testing

/// The deterministic `apns-id` (SPEC 10.3): a function of `pushgate-source`, `pushgate-format` and the device.
struct APNsMessageIDTests {
    let source = Array("push.unified:0:42".utf8)
    let format = Array("apns".utf8)

    @Test func theIdFollowsTheDocumentedDerivation() {
        // Computed independently (Python hashlib) from the derivation in APNsMessageID's documentation.
        #expect(
            APNsMessageID.make(source: source, format: format, deviceID: "device-1")
                == "c4cdb6b0-9441-8a55-842d-4dccbf76425c")
        #expect(
            APNsMessageID.make(source: nil, format: nil, deviceID: "device-1")
                == "58ae5601-976f-8809-87ac-83ccfd6b8bdc")
    }

    @Test func theSameInputsGiveTheSameIdAndAnyOtherInputAnother() {
        let id = APNsMessageID.make(source: source, format: format, deviceID: "device-1")
        #expect(APNsMessageID.make(source: source, format: format, deviceID: "device-1") == id)
        let others = [
            APNsMessageID.make(source: source, format: format, deviceID: "device-2"),
            APNsMessageID.make(source: Array("push.unified:0:43".utf8), format: format, deviceID: "device-1"),
            APNsMessageID.make(source: source, format: Array("fb-card".utf8), deviceID: "device-1"),
            APNsMessageID.make(source: nil, format: format, deviceID: "device-1"),
            APNsMessageID.make(source: [], format: format, deviceID: "device-1"),
            APNsMessageID.make(source: Array("push.unified:0:42apns".utf8), format: [], deviceID: "device-1"),
        ]
        #expect(Set(others + [id]).count == others.count + 1)
    }

    @Test func theIdIsALowercaseVersion8UUIDOfTheRFC4122Variant() {
        for device in (0..<200).map({ "device-\($0)" }) {
            let id = APNsMessageID.make(source: source, format: format, deviceID: device)
            let characters = Array(id)
            #expect(characters.count == 36)
            #expect([8, 13, 18, 23].allSatisfy { characters[$0] == "-" })
            #expect(id.replacingOccurrences(of: "-", with: "").allSatisfy { "0123456789abcdef".contains($0) })
            #expect(characters[14] == "8")
            #expect("89ab".contains(characters[19]))
        }
    }

    @Test func aRecordsIdDependsOnlyOnItsSourceAndFormatHeadersAndTheDevice() {
        let record = APNsSamples.record()
        var moved = record
        moved.topic = "push.fb.card"
        moved.offset = 9
        moved.value = Array("{}".utf8)
        moved.headers.removeAll { $0.name == "apns-priority" }
        #expect(APNsMessageID.make(for: record, deviceID: "d") == APNsMessageID.make(for: moved, deviceID: "d"))
        #expect(
            APNsMessageID.make(for: record, deviceID: "d")
                == APNsMessageID.make(source: source, format: format, deviceID: "d"))
    }
}
