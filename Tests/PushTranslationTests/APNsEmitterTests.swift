import PushModel
import PushTranslation
import Testing

/// SPEC section 5.1.
@Suite struct APNsEmitterTests {
    private func apns(_ json: String) -> OutputRecord? {
        Harness.translate(json).output(.apns)
    }

    @Test func bodyOnlyIsAPlainStringAlert() {
        #expect(apns(#"{"message":{"body":"Hi"}}"#)?.text == #"{"aps":{"alert":"Hi"}}"#)
    }

    @Test func alertObjectKeysInOrder() {
        let json =
            #"{"message":{"body":"B","subtitle":"S","title":"T"},"custom":{"ios_loc_args":"x","ios_loc_key":"LK","ios_action_loc_key":"AK","ios_title_loc_args":["a","b"],"ios_title_loc_key":"TK","ios_launch_image":"L.png"}}"#
        #expect(
            apns(json)?.text
                == #"{"aps":{"alert":{"title":"T","subtitle":"S","body":"B","launch-image":"L.png","title-loc-key":"TK","title-loc-args":["a","b"],"action-loc-key":"AK","loc-key":"LK","loc-args":["x"]}}}"#
        )
    }

    @Test func titleOnlyIsAnObject() {
        #expect(apns(#"{"message":{"title":"T"}}"#)?.text == #"{"aps":{"alert":{"title":"T"}}}"#)
    }

    @Test func apsKeysInOrder() {
        let json =
            #"{"thread_id":"th","message":{"body":"B"},"custom":{"ios_mutable_content":true,"ios_content_available":true,"ios_category":"C","ios_sound":"s.caf","ios_badge":3}}"#
        #expect(
            apns(json)?.text
                == #"{"aps":{"alert":"B","badge":3,"sound":"s.caf","thread-id":"th","category":"C","content-available":1,"mutable-content":1}}"#
        )
    }

    @Test func falseFlagsAreNotWritten() {
        let json = #"{"message":{"body":"B"},"custom":{"ios_mutable_content":false,"ios_content_available":false}}"#
        #expect(apns(json)?.text == #"{"aps":{"alert":"B"}}"#)
    }

    @Test func actionsAndDataFollowAps() {
        let json =
            #"{"data":{"z":1,"a":[true,null,"x"],"n":1.50},"actions":[{"foreground":true,"name":"Open","type":"url","value":"https://a.b","authentication":false,"destructive":true,"extra":{"k":"v"}}],"action":{"type":"dial","value":"+1 (555) 010-99"},"message":{"body":"B"}}"#
        #expect(
            apns(json)?.text
                == #"{"aps":{"alert":"B"},"notification-action":{"type":"dial","value":"+1 (555) 010-99"},"category-actions":[{"type":"url","name":"Open","value":"https://a.b","destructive":true,"authentication":false,"foreground":true,"extra":{"k":"v"}}],"z":1,"a":[true,null,"x"],"n":1.50}"#
        )
    }

    @Test(arguments: ["aps", "notification-action", "category-actions"])
    func reservedDataKeysDeadLetterTheFormatOnly(_ name: String) {
        let records = Harness.translate(#"{"data":{"\#(name)":1},"message":{"body":"B"}}"#)
        #expect(records.formats == ["android-expandable", "dead-letter"])
        #expect(records.deadLetters.first?.codes == ["reserved_key /data/\(name)"])
        #expect(records.deadLetters.first?.header("__connect.errors.stage") == "emit")
        #expect(records.deadLetters.first?.header("pushgate-format") == "apns")
    }

    @Test func noAlertBadgeSoundOrContentIsEmptyNotification() {
        let records = Harness.translate(#"{"platform":{"android":false},"custom":{"ios_mutable_content":true}}"#)
        #expect(records.errorCodes == ["empty_notification "])
    }

    @Test func emitErrorsAreAllListedSorted() {
        let records = Harness.translate(#"{"platform":{"android":false},"data":{"notification-action":1,"aps":2}}"#)
        #expect(
            records.errorCodes == [
                "empty_notification ", "reserved_key /data/aps", "reserved_key /data/notification-action",
            ])
    }

    @Test func contentAvailableAloneIsABackgroundPush() {
        let record = apns(
            #"{"message":{"priority":"high"},"custom":{"ios_content_available":true},"platform":{"android":false}}"#)
        #expect(record?.text == #"{"aps":{"content-available":1}}"#)
        #expect(record?.header("apns-push-type") == "background")
        #expect(record?.header("apns-priority") == "5")
    }

    @Test func badgeOnlyIsAnAlertPush() {
        #expect(apns(#"{"custom":{"ios_badge":0}}"#)?.header("apns-push-type") == "alert")
    }

    @Test func highPriorityIsTen() {
        #expect(apns(#"{"message":{"body":"B","priority":"high"}}"#)?.header("apns-priority") == "10")
        #expect(apns(#"{"message":{"body":"B","priority":"normal"}}"#)?.header("apns-priority") == "5")
    }

    @Test func expirationIsTimestampSecondsPlusTTL() {
        #expect(apns(#"{"message":{"body":"B"}}"#)?.header("apns-expiration") == "\(1_700_000_000 + 2_419_200)")
        #expect(apns(#"{"message":{"body":"B","ttl":60}}"#)?.header("apns-expiration") == "1700000060")
        #expect(apns(#"{"message":{"body":"B","ttl":0}}"#)?.header("apns-expiration") == "0")
    }

    @Test func expirationFloorsMilliseconds() {
        let records = Harness.translate(#"{"message":{"body":"B","ttl":1}}"#, timestampMs: 1_999)
        #expect(records.output(.apns)?.header("apns-expiration") == "2")
    }

    @Test func recordWithoutTimestampUsesReadTime() {
        let records = Harness.translate(#"{"message":{"body":"B","ttl":1}}"#, timestampMs: nil)
        #expect(records.output(.apns)?.header("apns-expiration") == "1800000001")
    }

    @Test func payloadOver4096BytesIsPayloadTooLarge() {
        let big = String(repeating: "x", count: 4100)
        let records = Harness.translate(
            #"{"message":{"body":"B"},"data":{"big":"\#(big)"},"platform":{"android":false}}"#)
        #expect(records.errorCodes == ["payload_too_large "])
    }

    @Test func payloadOfExactly4096BytesIsAccepted() {
        let overhead = #"{"aps":{"alert":"B"},"big":""}"#.utf8.count
        let big = String(repeating: "x", count: 4096 - overhead)
        let record = apns(#"{"message":{"body":"B"},"data":{"big":"\#(big)"},"platform":{"android":false}}"#)
        #expect(record?.value.count == 4096)
    }

    @Test func onlyRequiredEscapesAreWritten() {
        let record = apns(#"{"message":{"body":"a\/b \"q\" \\ \u00e9 \u0001\u001f\n\t\r\b\f €"}}"#)
        #expect(record?.text == #"{"aps":{"alert":"a/b \"q\" \\ é \u0001\u001f\n\t\r\b\f €"}}"#)
    }

    @Test func inputNumbersAreWrittenVerbatim() {
        let record = apns(
            #"{"message":{"body":"B"},"data":{"a":1.50,"b":-0,"c":1e400,"d":2E-3,"e":18446744073709551616}}"#)
        #expect(record?.text == #"{"aps":{"alert":"B"},"a":1.50,"b":-0,"c":1e400,"d":2E-3,"e":18446744073709551616}"#)
    }
}
