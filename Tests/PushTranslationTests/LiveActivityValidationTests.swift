import PushModel
import PushTranslation
import Testing

/// SPEC 5.1.1 and 9 ("Live Activity checks"), and the Live Activity points of sections 3 and 4: the
/// validate stage of `live_activity`, routing and `unused_field`.
@Suite struct LiveActivityValidationTests {
    /// The errors of an iOS-only payload with an alert and `live_activity` set to `activity`.
    private func errors(_ activity: String, lenient: Bool = false) -> [String] {
        let payload = #"{"platform":{"android":false},"message":{"title":"T","body":"B"},"live_activity":"#
        return Harness.translate(payload + activity + "}", lenient: lenient).errorCodes
    }

    /// The warnings of the outputs of `json`.
    private func warnings(_ json: String) -> [String] { Harness.translate(json).outputs.first?.codes ?? ["no output"] }

    @Test(arguments: [
        (#"{"event":"update","content_state":{},"dismissal_date":1}"#, "dismissal_date"),
        (
            #"{"event":"start","content_state":{},"attributes_type":"A","attributes":{},"dismissal_date":1}"#,
            "dismissal_date"
        ),
        (#"{"event":"update","content_state":{},"attributes_type":"A"}"#, "attributes_type"),
        (#"{"event":"end","attributes":{}}"#, "attributes"),
        (#"{"event":"update","content_state":{},"input_push_token":false}"#, "input_push_token"),
        (#"{"event":"end","input_push_channel":"c"}"#, "input_push_channel"),
        (#"{"event":"start","content_state":{},"attributes_type":"A","attributes":{},"channel_id":"c"}"#, "channel_id"),
    ])
    func keyWithAnEventThatDoesNotTakeItIsInvalidValue(_ activity: String, _ key: String) {
        let codes = errors(activity)
        #expect(codes.contains("invalid_value /live_activity/\(key)"))
        #expect(codes.filter { $0.hasPrefix("missing_field /live_activity") }.isEmpty)
    }

    /// Every key with every event: `invalid_value` exactly when the event does not take it (SPEC 5.1.1's
    /// third column), and nothing else for a key the event takes.
    @Test(arguments: ["start", "update", "end"])
    func everyKeyWithEveryEvent(_ event: String) {
        let values: [(key: String, value: String, events: Set<String>)] = [
            ("content_state", #"{"a":1}"#, ["start", "update", "end"]),
            ("timestamp", "1700000000", ["start", "update", "end"]),
            ("stale_date", "1700003600", ["start", "update", "end"]),
            ("dismissal_date", "1700009000", ["end"]),
            ("relevance_score", "0.5", ["start", "update", "end"]),
            ("attributes_type", #""A""#, ["start"]),
            ("attributes", #"{"b":2}"#, ["start"]),
            ("input_push_token", "true", ["start"]),
            ("input_push_channel", #""Y2g=""#, ["start"]),
            ("channel_id", #""Y2g=""#, ["update", "end"]),
        ]
        // The keys the event requires, so that only the key under test can be wrong.
        let required: [String: [(String, String)]] = [
            "start": [("content_state", "{}"), ("attributes_type", #""A""#), ("attributes", "{}")],
            "update": [("content_state", "{}")], "end": [],
        ]
        for (key, value, events) in values {
            let members = [("event", #""\#(event)""#)] + (required[event] ?? []).filter { $0.0 != key } + [(key, value)]
            let activity = "{" + members.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",") + "}"
            let expected = events.contains(event) ? [] : ["invalid_value /live_activity/\(key)"]
            #expect(errors(activity) == expected, "\(key) with \(event)")
        }
    }

    @Test func aKeyTheEventDoesNotTakeIsReportedOnlyOnce() {
        // A wrong type and a null inside are not reported for a key the event does not take.
        #expect(
            errors(#"{"event":"update","content_state":{},"dismissal_date":"x"}"#) == [
                "invalid_value /live_activity/dismissal_date"
            ])
        #expect(errors(#"{"event":"end","attributes":{"a":null}}"#) == ["invalid_value /live_activity/attributes"])
    }

    @Test func eachEventsRequiredKeysAreMissingField() {
        #expect(
            errors(#"{"event":"start"}"#) == [
                "missing_field /live_activity/attributes", "missing_field /live_activity/attributes_type",
                "missing_field /live_activity/content_state",
            ])
        #expect(errors(#"{"event":"update"}"#) == ["missing_field /live_activity/content_state"])
        #expect(errors(#"{"event":"update","content_state":null}"#) == ["missing_field /live_activity/content_state"])
        #expect(errors(#"{"event":"end"}"#) == [])
    }

    @Test func missingEventIsMissingFieldAndSkipsTheEventRules() {
        #expect(errors(#"{"dismissal_date":1,"channel_id":"c"}"#) == ["missing_field /live_activity/event"])
        #expect(errors(#"{"event":null}"#) == ["missing_field /live_activity/event"])
    }

    @Test func invalidEventSkipsOnlyTheEventRules() {
        #expect(
            errors(#"{"event":"stop","attributes_type":"A","timestamp":1.5}"#) == [
                "invalid_value /live_activity/event", "wrong_type /live_activity/timestamp",
            ])
        #expect(
            errors(#"{"event":"","content_state":[]}"#) == [
                "wrong_type /live_activity/content_state", "out_of_range /live_activity/event",
            ])
        #expect(errors(#"{"event":1}"#) == ["wrong_type /live_activity/event"])
    }

    @Test func typesAndRangesAreCheckedWhateverTheEvent() {
        #expect(errors(#"{"event":"end","timestamp":"1"}"#) == ["wrong_type /live_activity/timestamp"])
        #expect(errors(#"{"event":"end","timestamp":1e3}"#) == ["wrong_type /live_activity/timestamp"])
        #expect(errors(#"{"event":"end","stale_date":-1}"#) == ["out_of_range /live_activity/stale_date"])
        #expect(
            errors(#"{"event":"end","dismissal_date":253402300800}"#) == ["out_of_range /live_activity/dismissal_date"])
        #expect(errors(#"{"event":"end","dismissal_date":253402300799,"timestamp":0}"#) == [])
        #expect(errors(#"{"event":"end","relevance_score":-0.5}"#) == ["out_of_range /live_activity/relevance_score"])
        #expect(errors(#"{"event":"end","relevance_score":1e400}"#) == ["out_of_range /live_activity/relevance_score"])
        #expect(errors(#"{"event":"end","relevance_score":true}"#) == ["wrong_type /live_activity/relevance_score"])
        #expect(errors(#"{"event":"end","relevance_score":-0}"#) == [])
        #expect(
            errors(#"{"event":"update","content_state":{},"channel_id":""}"#) == [
                "out_of_range /live_activity/channel_id"
            ])
        #expect(errors(#"{"event":"update","content_state":"{}"}"#) == ["wrong_type /live_activity/content_state"])
        #expect(
            errors(#"{"event":"start","content_state":{},"attributes_type":"A","attributes":{},"input_push_token":1}"#)
                == ["wrong_type /live_activity/input_push_token"])
        #expect(errors(#""update""#) == ["wrong_type /live_activity"])
    }

    @Test func nullInsideAppObjectsIsInvalidValueAtItsPath() {
        #expect(
            errors(#"{"event":"update","content_state":{"a/b":null,"l":[1,null,{"x":null}],"e":""}}"#) == [
                "invalid_value /live_activity/content_state/a~1b", "invalid_value /live_activity/content_state/l/1",
                "invalid_value /live_activity/content_state/l/2/x",
            ])
        #expect(
            errors(#"{"event":"start","content_state":{},"attributes_type":"A","attributes":{"n":null}}"#) == [
                "invalid_value /live_activity/attributes/n"
            ])
    }

    @Test func unknownKeysAreCheckedButNotInsideAppObjects() {
        #expect(errors(#"{"event":"end","colour":null}"#) == ["unknown_field /live_activity/colour"])
        #expect(errors(#"{"event":"update","content_state":{"anything":{"goes":1}}}"#) == [])
        let lenient = Harness.translate(
            #"{"platform":{"android":false},"live_activity":{"event":"end","colour":1}}"#, lenient: true)
        #expect(lenient.output(.apns)?.codes == ["unknown_field /live_activity/colour"])
    }

    @Test func liveActivityWithAnotherTemplateIsAmbiguous() {
        let carousel = #""carousel":{"items":[{"image":"https://a.b/1.png"},{"image":"https://a.b/2.png"}]}"#
        let activity = #""live_activity":{"event":"end"}"#
        let both = Harness.translate(#"{"message":{"title":"T","body":"B"},"# + carousel + "," + activity + "}")
        #expect(both.errorCodes == ["ambiguous_template "])
        #expect(both.deadLetters.first?.problems.first?.message.contains("carousel and live_activity") == true)
        let card = Harness.translate(#"{"card":{"size":"small"},"# + activity + "}")
        #expect(card.errorCodes == ["ambiguous_template "])
        let three = Harness.translate(#"{"card":{"size":"small"},"# + carousel + "," + activity + "}")
        #expect(three.deadLetters.first?.problems.first?.message.hasPrefix("carousel, card and live_activity") == true)
        // Not for platform routing without iOS, nor with targets.
        let android = Harness.translate(
            #"{"platform":{"ios":false},"message":{"body":"B"},"# + carousel + "," + activity + "}")
        #expect(android.formats == ["android-expandable"])
        let targeted = Harness.translate(
            #"{"targets":["apns","adobe-carousel"],"message":{"title":"T","body":"B"},"# + carousel + "," + activity
                + "}")
        #expect(targeted.formats == ["apns", "adobe-carousel"])
    }

    @Test func notificationOnlyFieldsAreUnusedByALiveActivity() {
        let json =
            #"{"platform":{"android":false},"thread_id":"t","message":{"title":"T","subtitle":"S"},"custom":{"ios_badge":1,"ios_category":"C","ios_sound":"s"},"action":{"type":"openApp"},"actions":[{"type":"openApp","name":"Go"}],"live_activity":{"event":"end"}}"#
        #expect(
            warnings(json) == [
                "unused_field /action", "unused_field /actions", "unused_field /custom/ios_badge",
                "unused_field /custom/ios_category", "unused_field /message/subtitle", "unused_field /thread_id",
            ])
    }

    @Test func soundWithoutTitleOrBodyIsUnused() {
        let json = #"{"platform":{"android":false},"custom":{"ios_sound":"s"},"live_activity":{"event":"end"}}"#
        #expect(warnings(json) == ["unused_field /custom/ios_sound"])
        let withBody =
            #"{"platform":{"android":false},"message":{"body":"B"},"custom":{"ios_sound":"s"},"live_activity":{"event":"end"}}"#
        #expect(warnings(withBody) == [])
    }

    @Test func fieldsOtherFormatsUseAreNotUnused() {
        // android-expandable uses action and actions; the card uses ios fields.
        let json =
            #"{"message":{"body":"B"},"action":{"type":"openApp"},"live_activity":{"event":"end"}}"#
        #expect(warnings(json) == [])
        let card =
            #"{"targets":["apns","fb-card"],"message":{"body":"B"},"custom":{"ios_badge":1},"card":{"size":"small"},"live_activity":{"event":"end"}}"#
        #expect(Harness.translate(card).outputs.first?.codes == [])
    }

    @Test func liveActivityWithoutApnsIsUnused() {
        let json = #"{"platform":{"ios":false},"message":{"body":"B"},"live_activity":{"event":"end"}}"#
        #expect(warnings(json) == ["unused_field /live_activity"])
    }
}
