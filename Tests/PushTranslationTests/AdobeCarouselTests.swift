import PushModel
import PushTranslation
import Testing

/// SPEC sections 5.2 (and the carousel rules of 3 and 4).
@Suite struct AdobeCarouselTests {
    static let two = ##"[{"image":"https://a.b/1.png"},{"image":"https://a.b/2.png"}]"##

    private func carousel(_ carousel: String, extra: String = "") -> [OutputRecord] {
        Harness.translate(
            ##"{"targets":["adobe-carousel"],"message":{"title":"T","body":"B"},"carousel":\##(carousel)\##(extra)}"##)
    }

    @Test func minimalCarousel() {
        #expect(
            carousel(##"{"items":\##(Self.two)}"##).first?.text
                == ##"{"aps":{"alert":{"title":"T","body":"B"},"category":"AEPNotification","mutable-content":1},"adb_version":"1.0","adb_template_type":"car","adb_car_mode":"auto","adb_car_layout":"default","adb_items":[{"img":"https://a.b/1.png"},{"img":"https://a.b/2.png"}]}"##
        )
    }

    @Test func everyCarouselKeyInOrder() {
        let json =
            ##"{"colors":{"background":"#a0b1c2","body":"00ff00","title":"#FF0000"},"uri":"myapp://home","expanded_body":"EB","expanded_title":"ET","layout":"filmstrip","mode":"manual","items":[{"uri":"myapp://1","text":"one","image":"https://a.b/1.png"},{"image":"https://a.b/2.png"},{"image":"http://a.b/3.png","text":"three"}]}"##
        let records = carousel(
            json,
            extra:
                ##","custom":{"ios_badge":2,"ios_sound":"s","ios_mutable_content":false},"thread_id":"th","data":{"k":1}"##
        )
        #expect(
            records.first?.text
                == ##"{"aps":{"alert":{"title":"T","body":"B"},"badge":2,"sound":"s","thread-id":"th","category":"AEPNotification","mutable-content":1},"adb_version":"1.0","adb_template_type":"car","adb_title_ex":"ET","adb_body_ex":"EB","adb_uri":"myapp://home","adb_car_mode":"manual","adb_car_layout":"filmstrip","adb_items":[{"img":"https://a.b/1.png","txt":"one","uri":"myapp://1"},{"img":"https://a.b/2.png"},{"img":"http://a.b/3.png","txt":"three"}],"adb_clr_title":"FF0000","adb_clr_body":"00FF00","adb_clr_bg":"A0B1C2","k":1}"##
        )
    }

    @Test func urlActionGivesTheURIWhenTheCarouselHasNone() {
        let records = carousel(
            ##"{"items":\##(Self.two)}"##, extra: ##","action":{"type":"url","value":"https://shop.x/1"}"##)
        #expect(records.first?.text.contains(##""adb_uri":"https://shop.x/1""##) == true)
        #expect(records.first?.codes == [])
    }

    @Test func carouselURIWinsOverTheAction() {
        let records = carousel(
            ##"{"uri":"myapp://c","items":\##(Self.two)}"##,
            extra: ##","action":{"type":"url","value":"https://shop.x/1"}"##)
        #expect(records.first?.text.contains(##""adb_uri":"myapp://c""##) == true)
    }

    @Test func categoryIsOverriddenWithAWarning() {
        let records = carousel(##"{"items":\##(Self.two)}"##, extra: ##","custom":{"ios_category":"mine"}"##)
        #expect(records.first?.codes == ["overridden_field /custom/ios_category"])
        #expect(records.first?.text.contains("mine") == false)
    }

    @Test func payloadWarningsComeBeforeFormatWarnings() {
        let json =
            ##"{"targets":["adobe-carousel"],"zz":1,"message":{"title":"\##(String(repeating: "t", count: 71))","body":"B"},"carousel":{"items":\##(Self.two)},"custom":{"ios_category":"c"}}"##
        let records = Harness.translate(json, lenient: true)
        #expect(
            records.first?.codes == [
                "unknown_field /zz", "overridden_field /custom/ios_category", "text_too_long /message/title",
            ])
    }

    @Test func longTextWarnsAtItsGuidance() {
        let ok = carousel(##"{"items":\##(Self.two)}"##.replacingOccurrences(of: "x", with: "x"))
        #expect(ok.first?.codes == [])
        let json =
            ##"{"targets":["adobe-carousel"],"message":{"title":"\##(String(repeating: "é", count: 70))","body":"\##(String(repeating: "b", count: 601))"},"carousel":{"items":\##(Self.two)}}"##
        #expect(Harness.translate(json).first?.codes == ["text_too_long /message/body"])
    }

    @Test func titleAndBodyAreRequired() {
        let records = Harness.translate(
            ##"{"targets":["adobe-carousel"],"carousel":{"items":\##(Self.two)},"custom":{"ios_badge":1}}"##)
        #expect(records.errorCodes == ["missing_field /message/body", "missing_field /message/title"])
        #expect(records.first?.header("__connect.errors.stage") == "emit")
    }

    @Test(arguments: ["aps", "adb_items", "adb_custom"])
    func reservedDataKeys(_ name: String) {
        let records = carousel(##"{"items":\##(Self.two)}"##, extra: ##","data":{"\##(name)":1}"##)
        #expect(records.errorCodes == ["reserved_key /data/\(name)"])
    }

    @Test(arguments: [
        (##"{"items":[{"image":"https://a.b/1.png"}]}"##, "invalid_item_count /carousel/items"),
        (
            ##"{"items":[{"image":"https://a/1"},{"image":"https://a/2"},{"image":"https://a/3"},{"image":"https://a/4"},{"image":"https://a/5"},{"image":"https://a/6"}]}"##,
            "invalid_item_count /carousel/items"
        ),
        (##"{"items":[{"image":"https://a.b/1.png"},{"text":"x"}]}"##, "missing_field /carousel/items/1/image"),
        (##"{"items":[{"image":"myapp://1"},{"image":"https://a.b/2.png"}]}"##, "invalid_url /carousel/items/0/image"),
        (
            ##"{"items":[{"image":"https://a.b/1.png","uri":"no scheme"},{"image":"https://a.b/2.png"}]}"##,
            "invalid_url /carousel/items/0/uri"
        ),
        (
            ##"{"items":[{"image":"https://a.b/1.png","alt":"x"},{"image":"https://a.b/2.png"}]}"##,
            "unknown_field /carousel/items/0/alt"
        ),
        (##"{"items":[{"image":"https://a.b/1.png"},"https://a.b/2.png"]}"##, "wrong_type /carousel/items/1"),
        (
            ##"{"mode":"Auto","items":[{"image":"https://a.b/1.png"},{"image":"https://a.b/2.png"}]}"##,
            "invalid_value /carousel/mode"
        ),
        (
            ##"{"layout":"grid","items":[{"image":"https://a.b/1.png"},{"image":"https://a.b/2.png"}]}"##,
            "invalid_value /carousel/layout"
        ),
        (
            ##"{"colors":{"title":"#12345"},"items":[{"image":"https://a.b/1.png"},{"image":"https://a.b/2.png"}]}"##,
            "invalid_color /carousel/colors/title"
        ),
        (
            ##"{"colors":{"body":"#1234567F"},"items":[{"image":"https://a.b/1.png"},{"image":"https://a.b/2.png"}]}"##,
            "invalid_color /carousel/colors/body"
        ),
        (
            ##"{"colors":{"border":"#123456"},"items":[{"image":"https://a.b/1.png"},{"image":"https://a.b/2.png"}]}"##,
            "unknown_field /carousel/colors/border"
        ),
        (
            ##"{"uri":"relative/path","items":[{"image":"https://a.b/1.png"},{"image":"https://a.b/2.png"}]}"##,
            "invalid_url /carousel/uri"
        ),
        (##"{"mode":"auto"}"##, "missing_field /carousel/items"),
        (
            ##"{"items":[{"image":"https://a.b/1.png"},{"image":"https://a.b/2.png"}],"speed":5}"##,
            "unknown_field /carousel/speed"
        ),
        (##"[]"##, "wrong_type /carousel"),
    ])
    func carouselRule(_ carouselJSON: String, _ error: String) {
        #expect(carousel(carouselJSON).errorCodes == [error])
    }
}

extension AdobeCarouselTests {
    @Test func reservedPrefixIsComparedByCodePoints() {
        // "adb_" followed by a combining mark is one grapheme with "_", but it still starts with adb_.
        let records = carousel(#"{"items":\#(Self.two)}"#, extra: #","data":{"adb_\u0301x":1}"#)
        #expect(records.errorCodes == ["reserved_key /data/adb_\u{0301}x"])
    }
}
