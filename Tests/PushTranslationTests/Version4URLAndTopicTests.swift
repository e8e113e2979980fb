import PushModel
import PushTranslation
import Testing

/// SPEC 9, "Version 4 URLs and topics": an `http`/`https` URL whose port is above 65535 or whose host is
/// an IPvFuture literal, and a `web.topic` of 4n+1 characters.
@Suite struct Version4URLAndTopicTests {
    private static let web = #""platform":{"ios":false,"android":false,"web":true}"#
    static let refusedByBrowsers = [
        "https://shop.example.com:99999/p", "https://shop.example.com:65536/", "http://a.example:0000065536/",
        "https://[v1.shop]/", "HTTPS://[V7.x]:80/p", "https://user@[v1.a:b]/",
        "https://a.example:18446744073709551617/",
    ]
    static let accepted = [
        "https://shop.example.com:65535/p", "https://a.example:0/", "https://a.example:000080/",
        "https://a.example:/p", "https://[::1]:443/", "https://user:pw@a.example:8080/",
    ]

    private func webpush(_ members: String) -> [OutputRecord] {
        Harness.translate("{\(Self.web),\(members)}")
    }

    @Test(arguments: refusedByBrowsers)
    func aNavigateOrImageURLTheBrowsersRefuseIsInvalidURL(_ url: String) {
        #expect(
            webpush(#""message":{"title":"T"},"web":{"navigate":"\#(url)","icon":"\#(url)"}"#).errorCodes == [
                "invalid_url /web/icon", "invalid_url /web/navigate",
            ])
        let expandable = Harness.translate(
            #"{"message":{"title":"T","body":"B"},"expandable":{"type":"image","value":"\#(url)"}}"#)
        #expect(expandable.errorCodes == ["invalid_url /expandable/value"])
    }

    @Test(arguments: accepted)
    func aPortUpTo65535AndAnIPv6HostAreAccepted(_ url: String) {
        let records = webpush(#""message":{"title":"T"},"web":{"navigate":"\#(url)","icon":"\#(url)"}"#)
        #expect(records.formats == ["webpush"])
        #expect(records.output(.webpush)?.text.contains(#""navigate":"\#(url)""#) == true)
    }

    /// An action's `url` value is an absolute URI (SPEC 3), so it stays valid; but it is not an `http` or
    /// `https` value for 5.6: neither the page a notification opens nor a button.
    @Test(arguments: refusedByBrowsers)
    func anActionURLTheBrowsersRefuseIsNoNavigateAndNoButton(_ url: String) {
        let fallback = webpush(#""message":{"title":"T"},"action":{"type":"url","value":"\#(url)"}"#)
        #expect(fallback.errorCodes == ["missing_field /web/navigate"])
        #expect(fallback.deadLetters.first?.header("__connect.errors.stage") == "emit")
        let buttons = webpush(
            #""message":{"title":"T"},"web":{"navigate":"https://e.x/"},"actions":[{"type":"url","name":"B","value":"\#(url)"}]"#
        )
        let output = buttons.output(.webpush)
        #expect(output?.codes == ["unsupported_action /actions/0"])
        #expect(output?.text.contains("actions") == false)
        let apns = Harness.translate(#"{"message":{"title":"T"},"action":{"type":"url","value":"\#(url)"}}"#)
        #expect(apns.output(.apns) != nil)
        #expect(!apns.deadLetters.flatMap(\.codes).contains { $0.hasPrefix("invalid_url") })
    }

    @Test(arguments: Array(1...32))
    func aTopicOf4nPlus1CharactersIsInvalidValue(_ length: Int) {
        let topic = String(repeating: "a-_9", count: 8).prefix(length)
        let records = webpush(#""message":{"title":"T"},"web":{"navigate":"https://e.x/","topic":"\#(topic)"}"#)
        if length % 4 == 1 {
            #expect(records.errorCodes == ["invalid_value /web/topic"])
            #expect(records.deadLetters.first?.problems.first?.message.contains("BadWebPushTopic") == true)
        } else {
            #expect(records.output(.webpush)?.header("webpush-topic") == String(topic))
        }
    }

    @Test func aTopicOf4nPlus1WrongCharactersIsOneInvalidValueAndALongOneOutOfRangeOnly() {
        let wrong = webpush(#""message":{"title":"T"},"web":{"navigate":"https://e.x/","topic":"a b c"}"#)
        #expect(wrong.errorCodes == ["invalid_value /web/topic"])
        #expect(wrong.deadLetters.first?.problems.first?.message.contains("A-Z") == true)
        let long = String(repeating: "t", count: 33)
        #expect(
            webpush(#""message":{"title":"T"},"web":{"navigate":"https://e.x/","topic":"\#(long)"}"#).errorCodes == [
                "out_of_range /web/topic"
            ])
    }
}
