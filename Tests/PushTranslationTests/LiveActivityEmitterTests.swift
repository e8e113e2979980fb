import PushModel
import PushTranslation
import Testing

/// SPEC 5.1.1: the `apns` output of a payload with `live_activity`, and its headers.
@Suite struct LiveActivityEmitterTests {
    /// iOS only, so that the Live Activity is the only output.
    private func translate(_ members: String, timestampMs: Int64? = Harness.timestampMs) -> [OutputRecord] {
        Harness.translate(#"{"platform":{"android":false},"# + members + "}", timestampMs: timestampMs)
    }

    private func apns(_ members: String) -> OutputRecord? { translate(members).output(.apns) }

    @Test func updateHasTimestampEventAndContentStateOnly() {
        let record = apns(#""live_activity":{"event":"update","content_state":{"score":"1-0"}}"#)
        #expect(record?.text == #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"score":"1-0"}}}"#)
    }

    @Test func startWritesEveryKeyInSpecOrder() {
        let json =
            #""custom":{"ios_sound":"goal.caf"},"message":{"body":"B","title":"T"},"live_activity":{"input_push_channel":"Y2hhbm5lbA==","input_push_token":true,"attributes":{"team":"A"},"attributes_type":"MatchAttributes","relevance_score":0.50,"stale_date":1700003600,"timestamp":1700000001,"content_state":{"s":[1,2]},"event":"start"}"#
        #expect(
            apns(json)?.text
                == #"{"aps":{"timestamp":1700000001,"event":"start","content-state":{"s":[1,2]},"stale-date":1700003600,"relevance-score":0.50,"attributes-type":"MatchAttributes","attributes":{"team":"A"},"input-push-token":1,"input-push-channel":"Y2hhbm5lbA==","alert":{"title":"T","body":"B","sound":"goal.caf"}}}"#
        )
    }

    @Test func endWritesDismissalDate() {
        let json = #""live_activity":{"event":"end","dismissal_date":0,"content_state":{}}"#
        #expect(
            apns(json)?.text
                == #"{"aps":{"timestamp":1700000000,"event":"end","content-state":{},"dismissal-date":0}}"#)
    }

    @Test func endNeedsNoContentState() {
        #expect(apns(#""live_activity":{"event":"end"}"#)?.text == #"{"aps":{"timestamp":1700000000,"event":"end"}}"#)
    }

    @Test func timestampDefaultsToTheRecordsSecondsRoundedDown() {
        let members = #""live_activity":{"event":"end"}"#
        #expect(
            translate(members, timestampMs: 1_700_000_000_999).output(.apns)?.text.contains(#""timestamp":1700000000,"#)
                == true)
        #expect(translate(members, timestampMs: -1).output(.apns)?.text.contains(#""timestamp":-1,"#) == true)
    }

    @Test func timestampDefaultsToTheReadTimeWithoutARecordTimestamp() {
        // Harness.translate reads at 1_800_000_000_000 ms.
        let record = translate(#""live_activity":{"event":"end"}"#, timestampMs: nil).output(.apns)
        #expect(record?.text == #"{"aps":{"timestamp":1800000000,"event":"end"}}"#)
    }

    @Test func numbersAreWrittenAsGiven() {
        let json =
            #""live_activity":{"event":"update","content_state":{"x":1.0e2},"timestamp":-0,"relevance_score":1e2}"#
        #expect(
            apns(json)?.text
                == #"{"aps":{"timestamp":-0,"event":"update","content-state":{"x":1.0e2},"relevance-score":1e2}}"#)
    }

    @Test func alertHasOnlyTitleBodyAndSound() {
        let json =
            #""message":{"title":"T","subtitle":"S"},"custom":{"ios_sound":"s.caf","ios_badge":1,"ios_category":"C"},"thread_id":"th","live_activity":{"event":"update","content_state":{}}"#
        #expect(
            apns(json)?.text
                == #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{},"alert":{"title":"T","sound":"s.caf"}}}"#
        )
    }

    @Test func soundWithoutAlertIsNotWritten() {
        let json = #""custom":{"ios_sound":"s.caf"},"live_activity":{"event":"update","content_state":{}}"#
        #expect(apns(json)?.text == #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{}}}"#)
    }

    @Test func dataFollowsApsAndActionKeysAreNotReserved() {
        let json =
            #""data":{"notification-action":1,"category-actions":[null]},"live_activity":{"event":"end"}"#
        #expect(
            apns(json)?.text
                == #"{"aps":{"timestamp":1700000000,"event":"end"},"notification-action":1,"category-actions":[null]}"#)
    }

    @Test func apsInDataIsReserved() {
        let records = translate(#""data":{"aps":{}},"live_activity":{"event":"end"}"#)
        #expect(records.formats == ["dead-letter"])
        #expect(records.errorCodes == ["reserved_key /data/aps"])
        #expect(records.deadLetters.first?.header("pushgate-format") == "apns")
    }

    @Test func startWithoutAlertTextIsAnEmitError() {
        let records = Harness.translate(
            #"{"message":{"body":"B"},"live_activity":{"event":"start","content_state":{},"attributes_type":"A","attributes":{}}}"#
        )
        // The Android output is still produced; apns is an emit dead letter.
        #expect(records.formats == ["android-expandable", "dead-letter"])
        #expect(records.errorCodes == ["missing_field /message/title"])
        #expect(records.deadLetters.first?.header("__connect.errors.stage") == "emit")
        let neither = translate(
            #""live_activity":{"event":"start","content_state":{},"attributes_type":"A","attributes":{}}"#)
        #expect(neither.errorCodes == ["missing_field /message/body", "missing_field /message/title"])
    }

    @Test func noEmptyNotificationForALiveActivity() {
        #expect(translate(#""live_activity":{"event":"end"}"#).formats == ["apns"])
    }

    @Test func inputPushTokenFalseIsNotWritten() {
        let json =
            #""message":{"title":"T","body":"B"},"live_activity":{"event":"start","content_state":{},"attributes_type":"A","attributes":{},"input_push_token":false}"#
        #expect(apns(json)?.text.contains("input-push-token") == false)
    }

    @Test func headersOfALiveActivity() {
        let record = apns(#""live_activity":{"event":"end"}"#)
        #expect(record?.header("apns-push-type") == "liveactivity")
        #expect(record?.header("apns-priority") == "5")
        #expect(record?.header("apns-expiration") == "1702419200")
        #expect(record?.header("apns-channel-id") == nil)
    }

    @Test func highPriorityIsTenEvenWithoutAlert() {
        let record = apns(#""message":{"priority":"high","ttl":0},"live_activity":{"event":"end"}"#)
        #expect(record?.header("apns-priority") == "10")
        #expect(record?.header("apns-expiration") == "0")
    }

    @Test func channelIDIsTheLastHeader() {
        let record = apns(
            #""collapse_id":"c","live_activity":{"event":"update","content_state":{},"channel_id":"ch\u00e9"}"#)
        #expect(record?.header("apns-channel-id") == "ch\u{e9}")
        #expect(
            Array((record?.headerNames ?? []).suffix(5)) == [
                "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-channel-id",
            ])
    }

    @Test func otherFormatsDeliveredByAPNsKeepNotificationHeaders() {
        let json =
            #"{"targets":["apns","adobe-carousel"],"message":{"title":"T","body":"B"},"carousel":{"items":[{"image":"https://a.b/1.png"},{"image":"https://a.b/2.png"}]},"live_activity":{"event":"update","content_state":{},"channel_id":"c"}}"#
        let records = Harness.translate(json)
        #expect(records.formats == ["apns", "adobe-carousel"])
        #expect(records.output(.apns)?.header("apns-push-type") == "liveactivity")
        #expect(records.output(.adobeCarousel)?.header("apns-push-type") == "alert")
        #expect(records.output(.adobeCarousel)?.header("apns-channel-id") == nil)
        #expect(records.output(.adobeCarousel)?.text.contains("content-state") == false)
    }

    @Test func tooLargeIsPayloadTooLarge() {
        let big = String(repeating: "x", count: 4100)
        let records = translate(#""live_activity":{"event":"update","content_state":{"t":"\#(big)"}}"#)
        #expect(records.errorCodes == ["payload_too_large "])
    }
}
