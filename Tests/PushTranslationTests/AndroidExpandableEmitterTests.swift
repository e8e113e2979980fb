import PushModel
import PushTranslation
import Testing

/// SPEC section 5.4.
@Suite struct AndroidExpandableEmitterTests {
    private func android(_ json: String) -> OutputRecord? {
        Harness.translate(#"{"platform":{"ios":false},\#(json.dropFirst())"#).output(.androidExpandable)
    }

    @Test func subjectAndMessage() {
        #expect(
            android(#"{"message":{"title":"T","body":"B"},"data":{"k":"v"}}"#)?.text
                == #"{"alert":{"subject":"T","message":"B"},"k":"v"}"#)
    }

    @Test func bodyIsRequired() {
        let records = Harness.translate(#"{"platform":{"ios":false},"message":{"title":"T"}}"#)
        #expect(records.errorCodes == ["missing_field /message/body"])
        #expect(records.first?.header("pushgate-format") == "android-expandable")
    }

    @Test func expandableTextWithActions() {
        let json =
            #"{"message":{"body":"B"},"action":{"type":"openApp","value":{"v":1}},"expandable":{"type":"text","value":"Long"},"actions":[{"type":"url","name":"u","value":"http://x.y"}]}"#
        #expect(
            android(json)?.text
                == #"{"alert":{"message":"B","notification-action":{"type":"openApp","value":{"v":1}},"expandable":{"type":"text","value":"Long","expandable-actions":[{"type":"url","name":"u","value":"http://x.y"}]}}}"#
        )
    }

    @Test func actionsWithoutExpandableUseTheBodyAsText() {
        let json = #"{"message":{"body":"B"},"actions":[{"type":"dial","name":"Call","value":"123"}]}"#
        #expect(
            android(json)?.text
                == #"{"alert":{"message":"B","expandable":{"type":"text","value":"B","expandable-actions":[{"type":"dial","name":"Call","value":"123"}]}}}"#
        )
    }

    @Test func imageExpandable() {
        let json = #"{"message":{"body":"B"},"expandable":{"type":"image","value":"https://cdn.x/p.jpg"}}"#
        #expect(
            android(json)?.text
                == #"{"alert":{"message":"B","expandable":{"type":"image","value":"https://cdn.x/p.jpg"}}}"#)
    }

    @Test func alertDataKeyIsReserved() {
        let records = Harness.translate(#"{"platform":{"ios":false},"message":{"body":"B"},"data":{"alert":"x"}}"#)
        #expect(records.errorCodes == ["reserved_key /data/alert"])
    }

    @Test func androidRecordsHaveNoAPNsHeaders() {
        let record = android(#"{"message":{"body":"B"},"collapse_id":"c"}"#)
        #expect(record?.headerNames == ["pushgate-id", "pushgate-format", "pushgate-source", "pushgate-warnings"])
    }

    @Test func payloadOver4096BytesIsPayloadTooLarge() {
        let records = Harness.translate(
            #"{"platform":{"ios":false},"message":{"body":"\#(String(repeating: "é", count: 2100))"}}"#)
        #expect(records.errorCodes == ["payload_too_large "])
    }
}
