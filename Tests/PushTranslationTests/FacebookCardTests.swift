import PushModel
import PushTranslation
import Testing

/// SPEC section 5.3 (and the card rules of 3 and 4).
@Suite struct FacebookCardTests {
    private func card(_ card: String, extra: String = ##","message":{"title":"T","body":"B"}"##) -> [OutputRecord] {
        Harness.translate(##"{"targets":["fb-card"],"card":\##(card)\##(extra)}"##)
    }

    @Test func minimalCardHasBackdropColor() {
        #expect(
            card(##"{"size":"small"}"##).first?.text
                == ##"{"aps":{"alert":{"title":"T","body":"B"}},"fb_push_card":{"version":"1.0","size":"small","backdropColor":"#00000000","alert":{"title":"T","body":"B"}}}"##
        )
    }

    @Test func everyCardKeyInOrderWithNormalizedColors() {
        let json =
            ##"{"actions":{"buttons":[{"url":"https://x.y","content":{"text":"Yes","size":18},"border_width":1,"border_color":"#000000","background_color":"#690200ff"},{}],"corner_radius":6,"content_inset":16.0,"top_inset":2,"height":44,"background":{"type":"color","color":"#ffffff"},"layout_style":"horizontal","style":"detached"},"body":{"content":{"font":"serif","align":"left","size":14,"color":"#33251F","text":"Body"},"background":{"url":"https://i.x/b.png","type":"image"}},"hero":{"content_align":"bottom","content":{"text":"Hero"},"background":{"type":"gif","url":"https://g.x/h.gif"},"height":0.5},"campaign":"42","dismiss_color":"#abcdef80","backdrop_color":"#332D2DF0","content_inset":16,"corner_radius":16,"size":"medium"}"##
        #expect(
            card(json, extra: ##","message":{"body":"B"},"data":{"d":true}"##).first?.text
                == ##"{"aps":{"alert":"B"},"fb_push_payload":{"campaign":"42"},"fb_push_card":{"version":"1.0","size":"medium","cornerRadius":16,"contentInset":16,"backdropColor":"#332D2DF0","dismissColor":"#ABCDEF80","alert":{"body":"B"},"hero":{"height":0.5,"background":{"_type":"GIF","url":"https://g.x/h.gif"},"content":{"_type":"StyledText","text":"Hero","color":"#000000FF"},"contentAlign":"bottom"},"body":{"background":{"_type":"Image","url":"https://i.x/b.png"},"content":{"_type":"StyledText","text":"Body","color":"#33251FFF","size":14,"align":"left","font":"serif"}},"actions":{"style":"detached","layoutStyle":"horizontal","background":{"_type":"Color","rgbaHex":"#FFFFFFFF"},"height":44,"topInset":2,"contentInset":16.0,"cornerRadius":6,"actions":[{"backgroundColor":"#690200FF","borderColor":"#000000FF","borderWidth":1,"content":{"_type":"StyledText","text":"Yes","color":"#000000FF","size":18},"url":"https://x.y"},{}]}},"d":true}"##
        )
    }

    @Test func actionsWithoutButtonsWriteAnEmptyArray() {
        #expect(
            card(##"{"size":"large","actions":{"style":"attached"}}"##).first?.text.contains(
                ##""actions":{"style":"attached","actions":[]}"##) == true)
    }

    @Test func cardWithoutAlertContentIsEmptyNotification() {
        let records = card(##"{"size":"small"}"##, extra: "")
        #expect(records.errorCodes == ["empty_notification "])
    }

    @Test func cardAlertOnlyWhenGiven() {
        let record = card(##"{"size":"small"}"##, extra: ##","custom":{"ios_badge":1}"##).first
        #expect(
            record?.text
                == ##"{"aps":{"badge":1},"fb_push_card":{"version":"1.0","size":"small","backdropColor":"#00000000"}}"##
        )
    }

    @Test(arguments: ["aps", "fb_push_card", "fb_push_payload"])
    func reservedDataKeys(_ name: String) {
        #expect(
            card(##"{"size":"small"}"##, extra: ##","message":{"body":"B"},"data":{"\##(name)":{}}"##).errorCodes == [
                "reserved_key /data/\(name)"
            ])
    }

    @Test(arguments: [
        (##"{}"##, "missing_field /card/size"),
        (##"{"size":"Small"}"##, "invalid_value /card/size"),
        (##"{"size":"small","corner_radius":-1}"##, "out_of_range /card/corner_radius"),
        (##"{"size":"small","content_inset":"10"}"##, "wrong_type /card/content_inset"),
        (##"{"size":"small","content_inset":1e400}"##, "out_of_range /card/content_inset"),
        (##"{"size":"small","backdrop_color":"#FFF"}"##, "invalid_color /card/backdrop_color"),
        (##"{"size":"small","dismiss_color":"000000FF"}"##, "invalid_color /card/dismiss_color"),
        (##"{"size":"small","campaign":""}"##, "out_of_range /card/campaign"),
        (##"{"size":"small","hero":{"height":0.5}}"##, "missing_field /card/hero/background"),
        (##"{"size":"small","body":{"content":{"text":"x"}}}"##, "missing_field /card/body/background"),
        (
            ##"{"size":"small","hero":{"height":1.5,"background":{"type":"color","color":"#000000"}}}"##,
            "out_of_range /card/hero/height"
        ),
        (
            ##"{"size":"small","hero":{"content_align":"middle","background":{"type":"color","color":"#000000"}}}"##,
            "invalid_value /card/hero/content_align"
        ),
        (
            ##"{"size":"small","body":{"background":{"type":"gif","url":"https://g.x/a.gif"}}}"##,
            "invalid_value /card/body/background/type"
        ),
        (
            ##"{"size":"small","body":{"background":{"type":"video","url":"https://g.x/a.gif"}}}"##,
            "invalid_value /card/body/background/type"
        ),
        (
            ##"{"size":"small","body":{"background":{"url":"https://g.x/a.png"}}}"##,
            "missing_field /card/body/background/type"
        ),
        (##"{"size":"small","body":{"background":{"type":"image"}}}"##, "missing_field /card/body/background/url"),
        (##"{"size":"small","body":{"background":{"type":"color"}}}"##, "missing_field /card/body/background/color"),
        (
            ##"{"size":"small","body":{"background":{"type":"image","url":"data:image/png;base64,AA"}}}"##,
            "invalid_url /card/body/background/url"
        ),
        (
            ##"{"size":"small","body":{"background":{"type":"color","color":"#000000","url":"https://a.b/c"}}}"##,
            "unknown_field /card/body/background/url"
        ),
        (
            ##"{"size":"small","body":{"background":{"type":"color","color":"#000000"},"content":{"color":"#000000"}}}"##,
            "missing_field /card/body/content/text"
        ),
        (
            ##"{"size":"small","body":{"background":{"type":"color","color":"#000000"},"content":{"text":"x","size":0}}}"##,
            "out_of_range /card/body/content/size"
        ),
        (
            ##"{"size":"small","body":{"background":{"type":"color","color":"#000000"},"content":{"text":"x","align":"justify"}}}"##,
            "invalid_value /card/body/content/align"
        ),
        (
            ##"{"size":"small","body":{"background":{"type":"color","color":"#000000"},"content":{"text":"x","textColor":"#000000"}}}"##,
            "unknown_field /card/body/content/textColor"
        ),
        (##"{"size":"small","actions":{"style":"floating"}}"##, "invalid_value /card/actions/style"),
        (##"{"size":"small","actions":{"layout_style":"grid"}}"##, "invalid_value /card/actions/layout_style"),
        (
            ##"{"size":"small","actions":{"background":{"type":"gif","url":"https://g.x/a.gif"}}}"##,
            "invalid_value /card/actions/background/type"
        ),
        (##"{"size":"small","actions":{"buttons":[{"url":"nope"}]}}"##, "invalid_url /card/actions/buttons/0/url"),
        (
            ##"{"size":"small","actions":{"buttons":[{"border_width":-2}]}}"##,
            "out_of_range /card/actions/buttons/0/border_width"
        ),
        (##"{"size":"small","actions":{"buttons":[{"title":"x"}]}}"##, "unknown_field /card/actions/buttons/0/title"),
        (##"{"size":"small","actions":{"buttons":{}}}"##, "wrong_type /card/actions/buttons"),
        (##"{"size":"small","actions":{"height":-44}}"##, "out_of_range /card/actions/height"),
        (##"{"size":"small","version":"1.0"}"##, "unknown_field /card/version"),
    ])
    func cardRule(_ cardJSON: String, _ error: String) {
        #expect(card(cardJSON).errorCodes == [error])
    }
}
