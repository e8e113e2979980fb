import PushModel
import PushTranslation
import Testing

/// One validate-stage rule: a payload and exactly the errors (`code path`) its dead letter lists, in order.
struct ValidateCase: CustomTestStringConvertible, Sendable {
    let rule: String
    let json: String
    let errors: [String]
    var testDescription: String { rule }
}

/// SPEC sections 3, 4 and 9: every field's type, bound, enum, URL and color rule.
@Suite struct ValidateStageTests {
    static let body = ##""message":{"body":"b"}"##

    static let cases: [ValidateCase] = [
        // payload keys
        .init(
            rule: "unknown top-level key", json: ##"{"mesage":{}, "message":{"body":"b"}}"##,
            errors: ["unknown_field /mesage"]),
        .init(
            rule: "unknown key with null is still unknown", json: ##"{"x":null,\##(body)}"##,
            errors: ["unknown_field /x"]),
        .init(
            rule: "null own key counts as absent",
            json: ##"{"id":null,"message":null,"data":null,"custom":null,"dry_run":null,"action":null,\##(body)}"##
                .replacingOccurrences(of: ##""message":null,"##, with: ""), errors: []),
        // id
        .init(rule: "id wrong type", json: ##"{"id":5,\##(body)}"##, errors: ["wrong_type /id"]),
        .init(rule: "id empty", json: ##"{"id":"",\##(body)}"##, errors: ["out_of_range /id"]),
        .init(
            rule: "id over 128 characters", json: ##"{"id":"\##(String(repeating: "é", count: 129))",\##(body)}"##,
            errors: ["out_of_range /id"]),
        // platform
        .init(rule: "platform wrong type", json: ##"{"platform":true,\##(body)}"##, errors: ["wrong_type /platform"]),
        .init(
            rule: "platform member wrong type", json: ##"{"platform":{"ios":"yes"},\##(body)}"##,
            errors: ["wrong_type /platform/ios"]),
        .init(
            rule: "platform unknown member", json: ##"{"platform":{"watch":true},\##(body)}"##,
            errors: ["unknown_field /platform/watch"]),
        .init(
            rule: "no platform", json: ##"{"platform":{"ios":false,"android":false},\##(body)}"##,
            errors: ["no_target /platform"]),
        // targets
        .init(rule: "targets empty", json: ##"{"targets":[],\##(body)}"##, errors: ["invalid_item_count /targets"]),
        .init(
            rule: "targets unknown name", json: ##"{"targets":["apns","web"],\##(body)}"##,
            errors: ["invalid_value /targets/1"]),
        .init(
            rule: "targets repeated name", json: ##"{"targets":["apns","apns"],\##(body)}"##,
            errors: ["invalid_value /targets/1"]),
        .init(
            rule: "targets element wrong type", json: ##"{"targets":[1],\##(body)}"##, errors: ["wrong_type /targets/0"]
        ),
        .init(
            rule: "targets more than 4 only names its bad entries",
            json:
                ##"{"targets":["apns","fb-card","apns","x","android-expandable"],"card":{"size":"small"},\##(body)}"##,
            errors: ["invalid_value /targets/2", "invalid_value /targets/3"]),
        .init(
            rule: "targets adobe without carousel", json: ##"{"targets":["adobe-carousel"],\##(body)}"##,
            errors: ["missing_field /carousel"]),
        .init(
            rule: "targets fb-card without card", json: ##"{"targets":["fb-card"],\##(body)}"##,
            errors: ["missing_field /card"]),
        .init(
            rule: "carousel and card without targets",
            json:
                ##"{"carousel":{"items":[{"image":"https://a.b/1.png"},{"image":"https://a.b/2.png"}]},"card":{"size":"small"},"message":{"title":"t","body":"b"}}"##,
            errors: ["ambiguous_template "]),
        .init(
            rule: "carousel and card with android only is still ambiguous",
            json:
                ##"{"platform":{"ios":true},"carousel":{"items":[{"image":"https://a.b/1.png"},{"image":"https://a.b/2.png"}]},"card":{"size":"small"},\##(body)}"##,
            errors: ["ambiguous_template "]),
        // message
        .init(rule: "message wrong type", json: ##"{"message":"hi"}"##, errors: ["wrong_type /message"]),
        .init(
            rule: "message title wrong type", json: ##"{"message":{"title":1,"body":"b"}}"##,
            errors: ["wrong_type /message/title"]),
        .init(rule: "message body empty", json: ##"{"message":{"body":""}}"##, errors: ["out_of_range /message/body"]),
        .init(
            rule: "message unknown key", json: ##"{"message":{"body":"b","text":"x"}}"##,
            errors: ["unknown_field /message/text"]),
        .init(
            rule: "priority invalid", json: ##"{"message":{"body":"b","priority":"urgent"}}"##,
            errors: ["invalid_value /message/priority"]),
        .init(
            rule: "priority wrong type", json: ##"{"message":{"body":"b","priority":10}}"##,
            errors: ["wrong_type /message/priority"]),
        .init(
            rule: "ttl fraction", json: ##"{"message":{"body":"b","ttl":3.0}}"##, errors: ["wrong_type /message/ttl"]),
        .init(
            rule: "ttl exponent", json: ##"{"message":{"body":"b","ttl":1e400}}"##, errors: ["wrong_type /message/ttl"]),
        .init(
            rule: "ttl negative", json: ##"{"message":{"body":"b","ttl":-1}}"##, errors: ["out_of_range /message/ttl"]),
        .init(
            rule: "ttl over four weeks", json: ##"{"message":{"body":"b","ttl":2419201}}"##,
            errors: ["out_of_range /message/ttl"]),
        .init(
            rule: "ttl 2^64", json: ##"{"message":{"body":"b","ttl":18446744073709551616}}"##,
            errors: ["out_of_range /message/ttl"]),
        .init(rule: "ttl string", json: ##"{"message":{"body":"b","ttl":"60"}}"##, errors: ["wrong_type /message/ttl"]),
        // data and scalars
        .init(rule: "data wrong type", json: ##"{"data":[1],\##(body)}"##, errors: ["wrong_type /data"]),
        .init(rule: "dry_run wrong type", json: ##"{"dry_run":"true",\##(body)}"##, errors: ["wrong_type /dry_run"]),
        .init(
            rule: "collapse_id over 64 bytes",
            json: ##"{"collapse_id":"\##(String(repeating: "é", count: 33))",\##(body)}"##,
            errors: ["out_of_range /collapse_id"]),
        .init(
            rule: "collapse_id empty", json: ##"{"collapse_id":"",\##(body)}"##, errors: ["out_of_range /collapse_id"]),
        .init(rule: "thread_id wrong type", json: ##"{"thread_id":7,\##(body)}"##, errors: ["wrong_type /thread_id"]),
        // custom
        .init(rule: "custom wrong type", json: ##"{"custom":[],\##(body)}"##, errors: ["wrong_type /custom"]),
        .init(
            rule: "custom unknown key", json: ##"{"custom":{"ios_badges":1},\##(body)}"##,
            errors: ["unknown_field /custom/ios_badges"]),
        .init(
            rule: "badge negative", json: ##"{"custom":{"ios_badge":-1},\##(body)}"##,
            errors: ["out_of_range /custom/ios_badge"]),
        .init(
            rule: "badge fraction", json: ##"{"custom":{"ios_badge":1.5},\##(body)}"##,
            errors: ["wrong_type /custom/ios_badge"]),
        .init(
            rule: "badge 2^64", json: ##"{"custom":{"ios_badge":18446744073709551616},\##(body)}"##,
            errors: ["out_of_range /custom/ios_badge"]),
        .init(
            rule: "badge string", json: ##"{"custom":{"ios_badge":"1"},\##(body)}"##,
            errors: ["wrong_type /custom/ios_badge"]),
        .init(
            rule: "content available wrong type", json: ##"{"custom":{"ios_content_available":1},\##(body)}"##,
            errors: ["wrong_type /custom/ios_content_available"]),
        .init(
            rule: "mutable content wrong type", json: ##"{"custom":{"ios_mutable_content":"true"},\##(body)}"##,
            errors: ["wrong_type /custom/ios_mutable_content"]),
        .init(
            rule: "sound empty", json: ##"{"custom":{"ios_sound":""},\##(body)}"##,
            errors: ["out_of_range /custom/ios_sound"]),
        .init(
            rule: "led color without hash", json: ##"{"custom":{"android_led_color":"FF0000"},\##(body)}"##,
            errors: ["invalid_color /custom/android_led_color"]),
        .init(
            rule: "led color with alpha", json: ##"{"custom":{"android_led_color":"#FF0000FF"},\##(body)}"##,
            errors: ["invalid_color /custom/android_led_color"]),
        .init(
            rule: "led color wrong type", json: ##"{"custom":{"android_led_color":1},\##(body)}"##,
            errors: ["wrong_type /custom/android_led_color"]),
        .init(
            rule: "loc args without key", json: ##"{"custom":{"ios_loc_args":["a"]},\##(body)}"##,
            errors: ["missing_field /custom/ios_loc_key"]),
        .init(
            rule: "title loc args without key", json: ##"{"custom":{"ios_title_loc_args":"a"},\##(body)}"##,
            errors: ["missing_field /custom/ios_title_loc_key"]),
        .init(
            rule: "android alias args without key",
            json: ##"{"custom":{"android_body_loc_key_args":["a"]},\##(body)}"##,
            errors: ["missing_field /custom/android_body_loc_key"]),
        .init(
            rule: "android title args without key", json: ##"{"custom":{"android_title_loc_args":["a"]},\##(body)}"##,
            errors: ["missing_field /custom/android_title_loc_key"]),
        .init(
            rule: "loc args element wrong type",
            json: ##"{"custom":{"ios_loc_key":"K","ios_loc_args":["a",2]},\##(body)}"##,
            errors: ["wrong_type /custom/ios_loc_args/1"]),
        .init(
            rule: "loc args wrong type", json: ##"{"custom":{"ios_loc_key":"K","ios_loc_args":{"a":1}},\##(body)}"##,
            errors: ["wrong_type /custom/ios_loc_args"]),
        .init(
            rule: "alias and canonical key both",
            json: ##"{"custom":{"android_body_loc_key":"K","android_body_loc_key_action":"K"},\##(body)}"##,
            errors: ["invalid_value /custom/android_body_loc_key_action"]),
        .init(
            rule: "alias and canonical args both",
            json:
                ##"{"custom":{"android_body_loc_key":"K","android_body_loc_args":["a"],"android_body_loc_key_args":["a"]},\##(body)}"##,
            errors: ["invalid_value /custom/android_body_loc_key_args"]),
        // action
        .init(rule: "action wrong type", json: ##"{"action":"url",\##(body)}"##, errors: ["wrong_type /action"]),
        .init(
            rule: "action without type", json: ##"{"action":{"value":"x"},\##(body)}"##,
            errors: ["missing_field /action/type"]),
        .init(
            rule: "action type empty", json: ##"{"action":{"type":""},\##(body)}"##,
            errors: ["out_of_range /action/type"]),
        .init(
            rule: "url action without value", json: ##"{"action":{"type":"url"},\##(body)}"##,
            errors: ["missing_field /action/value"]),
        .init(
            rule: "url action relative", json: ##"{"action":{"type":"url","value":"/path"},\##(body)}"##,
            errors: ["invalid_url /action/value"]),
        .init(
            rule: "url action with a space", json: ##"{"action":{"type":"url","value":"https://a.b/c d"},\##(body)}"##,
            errors: ["invalid_url /action/value"]),
        .init(
            rule: "url action value not a string", json: ##"{"action":{"type":"url","value":{"u":1}},\##(body)}"##,
            errors: ["wrong_type /action/value"]),
        .init(
            rule: "dial with letters", json: ##"{"action":{"type":"dial","value":"call-me"},\##(body)}"##,
            errors: ["invalid_value /action/value"]),
        .init(
            rule: "rich without value", json: ##"{"action":{"type":"rich"},\##(body)}"##,
            errors: ["missing_field /action/value"]),
        .init(
            rule: "action flag wrong type", json: ##"{"action":{"type":"openApp","foreground":"yes"},\##(body)}"##,
            errors: ["wrong_type /action/foreground"]),
        .init(
            rule: "action name empty", json: ##"{"action":{"type":"openApp","name":""},\##(body)}"##,
            errors: ["out_of_range /action/name"]),
        .init(rule: "actions empty", json: ##"{"actions":[],\##(body)}"##, errors: ["invalid_item_count /actions"]),
        .init(
            rule: "actions more than three",
            json:
                ##"{"actions":[{"type":"a","name":"1"},{"type":"a","name":"2"},{"type":"a","name":"3"},{"type":"a","name":"4"}],\##(body)}"##,
            errors: ["too_many_actions /actions"]),
        .init(
            rule: "button without name", json: ##"{"actions":[{"type":"openApp"}],\##(body)}"##,
            errors: ["missing_field /actions/0/name"]),
        .init(
            rule: "actions wrong type", json: ##"{"actions":{"type":"url"},\##(body)}"##,
            errors: ["wrong_type /actions"]),
        .init(rule: "button wrong type", json: ##"{"actions":[null],\##(body)}"##, errors: ["wrong_type /actions/0"]),
        // expandable
        .init(
            rule: "expandable invalid type", json: ##"{"expandable":{"type":"video","value":"x"},\##(body)}"##,
            errors: ["invalid_value /expandable/type"]),
        .init(
            rule: "expandable without value", json: ##"{"expandable":{"type":"text"},\##(body)}"##,
            errors: ["missing_field /expandable/value"]),
        .init(
            rule: "expandable without type", json: ##"{"expandable":{"value":"x"},\##(body)}"##,
            errors: ["missing_field /expandable/type"]),
        .init(
            rule: "expandable image not http",
            json: ##"{"expandable":{"type":"image","value":"ftp://a.b/c.png"},\##(body)}"##,
            errors: ["invalid_url /expandable/value"]),
        .init(
            rule: "expandable image without host",
            json: ##"{"expandable":{"type":"image","value":"https:///c.png"},\##(body)}"##,
            errors: ["invalid_url /expandable/value"]),
        .init(
            rule: "expandable unknown key",
            json: ##"{"expandable":{"type":"text","value":"x","style":"big"},\##(body)}"##,
            errors: ["unknown_field /expandable/style"]),
    ]

    @Test(arguments: ValidateStageTests.cases)
    func ruleGivesExactlyItsErrors(_ rule: ValidateCase) {
        let records = Harness.translate(rule.json)
        if rule.errors.isEmpty {
            #expect(records.deadLetters.isEmpty, "\(records.errorCodes)")
        } else {
            #expect(records.count == 1)
            #expect(records.first?.header("__connect.errors.stage") == "validate")
            #expect(records.errorCodes == rule.errors)
        }
    }

    @Test func everyErrorOfTheStageIsListedSortedByPathThenCode() {
        let json = ##"{"targets":["x"],"message":{"ttl":-5,"body":""},"custom":{"ios_badge":"1"},"zzz":1,"id":7}"##
        let records = Harness.translate(json)
        #expect(
            records.errorCodes == [
                "wrong_type /custom/ios_badge", "wrong_type /id", "out_of_range /message/body",
                "out_of_range /message/ttl", "invalid_value /targets/0", "unknown_field /zzz",
            ])
        #expect(records.first?.header("__connect.errors.exception.class.name") == "wrong_type")
        #expect(records.first?.header("__connect.errors.exception.message")?.hasPrefix("/custom/ios_badge: ") == true)
    }

    @Test func sortingComparesCodePointsNotLocale() {
        let json = ##"{"data":{},"custom":{"Z":1,"a":1,"é":1},\##(Self.body)}"##
        #expect(
            Harness.translate(json).errorCodes == [
                "unknown_field /custom/Z", "unknown_field /custom/a", "unknown_field /custom/é",
            ])
    }

    @Test func pointerEscapesTildeAndSlash() {
        #expect(Harness.translate(##"{"a/b~c":1,\##(Self.body)}"##).errorCodes == ["unknown_field /a~1b~0c"])
    }

    @Test func lenientTurnsUnknownFieldsIntoWarnings() {
        let records = Harness.translate(
            ##"{"extra":1,"message":{"body":"b","x":2},"platform":{"android":false}}"##, lenient: true)
        #expect(records.deadLetters.isEmpty)
        #expect(records.output(.apns)?.codes == ["unknown_field /extra", "unknown_field /message/x"])
    }

    @Test func invalidIDIsNotUsedAsPushgateID() {
        let records = Harness.translate(##"{"id":"","message":{"body":7}}"##)
        #expect(records.first?.header("pushgate-id") == "push.unified:3:42")
        let valid = Harness.translate(##"{"id":"n-1","message":{"body":7}}"##)
        #expect(valid.first?.header("pushgate-id") == "n-1")
    }

    @Test func idOf128CharactersIsAccepted() {
        let id = String(repeating: "😀", count: 128)
        let records = Harness.translate(##"{"id":"\##(id)",\##(Self.body)}"##)
        #expect(records.deadLetters.isEmpty)
        #expect(records.first?.header("pushgate-id") == id)
    }

    @Test func collapseIDOf64BytesIsAccepted() {
        let records = Harness.translate(##"{"collapse_id":"\##(String(repeating: "é", count: 32))",\##(Self.body)}"##)
        #expect(records.output(.apns)?.header("apns-collapse-id") == String(repeating: "é", count: 32))
    }

    @Test func minusZeroIsAnIntegerZero() {
        let records = Harness.translate(##"{"message":{"body":"b","ttl":-0},"custom":{"ios_badge":-0}}"##)
        #expect(records.output(.apns)?.header("apns-expiration") == "0")
        #expect(records.output(.apns)?.text.contains(##""badge":-0"##) == true)
    }

    @Test func customTypeAndOpenAppValuesAreAnyJSON() {
        let json =
            ##"{"action":{"type":"openApp","value":{"screen":[1,null]}},"actions":[{"type":"snooze","name":"Later","value":15,"minutes":null}],\##(Self.body)}"##
        let records = Harness.translate(json)
        #expect(records.deadLetters.isEmpty)
        #expect(
            records.output(.apns)?.text.contains(
                ##""category-actions":[{"type":"snooze","name":"Later","value":15,"minutes":null}]"##) == true)
    }

    @Test(arguments: [
        "https://example.com/a?b=c#d", "myapp://book/1", "tel:+1-555", "mailto:a@b.c", "HTTPS://A.B/%20x",
    ])
    func absoluteURIsAreAccepted(_ url: String) {
        let records = Harness.translate(##"{"action":{"type":"url","value":"\##(url)"},\##(Self.body)}"##)
        #expect(records.deadLetters.isEmpty, "\(records.errorCodes)")
    }

    @Test(arguments: ["example.com", "1http://a", "https://a.b/%zz", "https://a.b/é", "://a"])
    func nonURIsAreInvalidURL(_ url: String) {
        let records = Harness.translate(##"{"action":{"type":"url","value":"\##(url)"},\##(Self.body)}"##)
        #expect(records.errorCodes == ["invalid_url /action/value"])
    }
}
