import PushModel
import PushTranslation
import Testing

/// SPEC section 4: which formats a payload reaches, and `unused_field`.
@Suite struct RoutingTests {
    static let items = #"{"items":[{"image":"https://a.b/1.png"},{"image":"https://a.b/2.png"}]}"#
    static let message = #""message":{"title":"T","body":"B"}"#

    @Test func defaultRoutesToAPNsAndAndroid() {
        #expect(Harness.translate(#"{\#(Self.message)}"#).formats == ["apns", "android-expandable"])
    }

    @Test func iosOnly() {
        #expect(Harness.translate(#"{"platform":{"android":false},\#(Self.message)}"#).formats == ["apns"])
    }

    @Test func androidOnly() {
        #expect(Harness.translate(#"{"platform":{"ios":false},\#(Self.message)}"#).formats == ["android-expandable"])
    }

    @Test func carouselReplacesAPNs() {
        #expect(
            Harness.translate(#"{"carousel":\#(Self.items),\#(Self.message)}"#).formats == [
                "adobe-carousel", "android-expandable",
            ])
    }

    @Test func cardReplacesAPNs() {
        #expect(
            Harness.translate(#"{"card":{"size":"small"},\#(Self.message)}"#).formats == [
                "fb-card", "android-expandable",
            ])
    }

    @Test func carouselWithoutIOSIsUnused() {
        let records = Harness.translate(#"{"platform":{"ios":false},"carousel":\#(Self.items),\#(Self.message)}"#)
        #expect(records.formats == ["android-expandable"])
        #expect(records.first?.codes == ["unused_field /carousel"])
    }

    @Test func targetsAreProducedInRecordOrder() {
        let json =
            #"{"targets":["android-expandable","fb-card","apns","adobe-carousel"],"card":{"size":"large"},"carousel":\#(Self.items),\#(Self.message)}"#
        #expect(Harness.translate(json).formats == ["apns", "adobe-carousel", "fb-card", "android-expandable"])
    }

    @Test func targetsOverridePlatform() {
        let json = #"{"targets":["apns"],"platform":{"ios":false,"android":false},\#(Self.message)}"#
        #expect(Harness.translate(json).formats == ["apns"])
    }

    @Test func iosFieldsUnusedOnAndroidOnly() {
        let json =
            #"{"targets":["android-expandable"],"message":{"body":"B","subtitle":"S","priority":"high","ttl":5},"custom":{"ios_badge":1,"ios_sound":"s"},"collapse_id":"c","thread_id":"t"}"#
        let records = Harness.translate(json)
        #expect(
            records.first?.codes == [
                "unused_field /collapse_id", "unused_field /custom/ios_badge", "unused_field /custom/ios_sound",
                "unused_field /message/priority", "unused_field /message/subtitle", "unused_field /message/ttl",
                "unused_field /thread_id",
            ])
    }

    @Test func androidCustomKeysAreAlwaysUnusedAtTheSpellingUsed() {
        let json = #"{"custom":{"android_icon":"i","android_body_loc_key_action":"K"},\#(Self.message)}"#
        let records = Harness.translate(json)
        #expect(records.outputs.count == 2)
        for record in records {
            #expect(
                record.codes == [
                    "unused_field /custom/android_body_loc_key_action", "unused_field /custom/android_icon",
                ])
        }
    }

    @Test func actionIsUsedByAdobeOnlyWhenItIsAURL() {
        let url = Harness.translate(
            #"{"targets":["adobe-carousel"],"action":{"type":"url","value":"https://a.b"},"carousel":\#(Self.items),\#(Self.message)}"#
        )
        #expect(url.first?.codes == [])
        let openApp = Harness.translate(
            #"{"targets":["adobe-carousel"],"action":{"type":"openApp"},"carousel":\#(Self.items),\#(Self.message)}"#)
        #expect(openApp.first?.codes == ["unused_field /action"])
    }

    @Test func actionsAndExpandableUnusedOnFacebookCard() {
        let json =
            #"{"targets":["fb-card"],"card":{"size":"small"},"actions":[{"type":"a","name":"n"},{"type":"b","name":"m"}],"expandable":{"type":"text","value":"v"},"action":{"type":"openApp"},\#(Self.message)}"#
        #expect(
            Harness.translate(json).first?.codes == [
                "unused_field /action", "unused_field /actions", "unused_field /expandable",
            ])
    }

    @Test func unusedFieldsAreNotReportedWithErrors() {
        let records = Harness.translate(#"{"targets":["android-expandable"],"thread_id":"t","message":{"body":1}}"#)
        #expect(records.errorCodes == ["wrong_type /message/body"])
    }

    @Test func everyGivenFieldIsCheckedRoutedOrNot() {
        let json = #"{"platform":{"ios":false},"card":{"size":"huge"},"carousel":{"items":[]},\#(Self.message)}"#
        #expect(
            Harness.translate(json).errorCodes == ["invalid_value /card/size", "invalid_item_count /carousel/items"])
    }
}
