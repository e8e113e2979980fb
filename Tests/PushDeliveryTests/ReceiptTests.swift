import PushDelivery
import PushModel
import Testing

/// The bytes of receipts (SPEC 10.7): members in order, only when known, strings escaped as JSON requires.
struct ReceiptTests {
    private func text(_ receipt: Receipt) -> String { String(decoding: receipt.value, as: UTF8.self) }

    @Test func everyMemberIsWrittenInTheOrderOfTheContract() {
        let receipt = Receipt(
            key: "device-1", outcome: .gone, platform: .apns, device: "device-1", audience: "user-1",
            app: "com.example.app", record: "push.apns:0:7", source: "push.unified:3:9", id: "order-1",
            format: "apns", status: 410, reason: "Unregistered", goneSince: 1_700_000_000_000, attempts: 2,
            at: 1_700_000_000_123, apnsID: "0b5b0e6c-1f0e-5d1c-8c1a-2f7f3f3d1a10", messageID: "projects/p/messages/1",
            location: "https://push.example/m/1")
        #expect(
            text(receipt)
                == #"{"outcome":"gone","platform":"apns","device":"device-1","audience":"user-1","app":"com.example.app","#
                + #""record":"push.apns:0:7","source":"push.unified:3:9","id":"order-1","format":"apns","status":410,"#
                + #""reason":"Unregistered","gone_since":1700000000000,"attempts":2,"at":1700000000123,"#
                + #""apns_id":"0b5b0e6c-1f0e-5d1c-8c1a-2f7f3f3d1a10","message_id":"projects/p/messages/1","#
                + #""location":"https://push.example/m/1"}"#)
    }

    @Test func membersNotKnownAreLeftOut() {
        let receipt = Receipt(
            key: "chan==", outcome: .rejected, platform: .apns, app: "com.example.app", record: "push.apns:1:2",
            format: "apns", reason: "no_app", attempts: 0, at: 5)
        #expect(
            text(receipt)
                == #"{"outcome":"rejected","platform":"apns","app":"com.example.app","record":"push.apns:1:2","#
                + #""format":"apns","reason":"no_app","attempts":0,"at":5}"#)
        #expect(
            text(Receipt(key: nil, outcome: .noDevice, platform: .fcm)) == #"{"outcome":"no_device","platform":"fcm"}"#)
    }

    @Test func stringsAreEscapedAsJSONRequiresAndNoMore() {
        let receipt = Receipt(
            key: "k", outcome: .rejected, platform: .webpush, device: "a\"b\\c/d\u{1}\u{1f}\n\r\t\u{8}\u{c}é€😀")
        #expect(
            text(receipt)
                == "{\"outcome\":\"rejected\",\"platform\":\"webpush\",\"device\":"
                + "\"a\\\"b\\\\c/d\\u0001\\u001f\\n\\r\\t\\b\\fé€😀\"}")
    }

    @Test func keyAndHeadersNameTheOutcomeSourceAndID() {
        let receipt = Receipt(
            key: "device-9", outcome: .expired, platform: .apns, source: "push.unified:0:1", id: "p-1")
        #expect(receipt.keyBytes == Array("device-9".utf8))
        #expect(receipt.headers.map(\.name) == ["pushgate-outcome", "pushgate-source", "pushgate-id"])
        #expect(
            receipt.headers.map { String(decoding: $0.value, as: UTF8.self) } == ["expired", "push.unified:0:1", "p-1"])
        let bare = Receipt(key: nil, outcome: .delivered, platform: .fcm)
        #expect(bare.keyBytes == nil)
        #expect(bare.headers.map(\.name) == ["pushgate-outcome"])
    }

    @Test func selectionsPickFailuresAllOrNone() {
        #expect(Outcome.allCases.filter(ReceiptSelection.failures.selects) == [.gone, .rejected, .expired])
        #expect(Outcome.allCases.filter(ReceiptSelection.all.selects) == Outcome.allCases)
        #expect(Outcome.allCases.filter(ReceiptSelection.none.selects).isEmpty)
        #expect(ReceiptSelection(rawValue: "failures") == .failures && ReceiptSelection(rawValue: "x") == nil)
    }
}
