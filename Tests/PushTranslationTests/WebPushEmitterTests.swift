import PushModel
import PushTranslation
import Testing

/// SPEC 5.6 (`webpush`) and the version-3 points of sections 1, 3, 4 and 9 that concern it.
@Suite struct WebPushEmitterTests {
    private static let web = #""platform":{"ios":false,"android":false,"web":true}"#

    private func webpush(_ members: String) -> [OutputRecord] {
        Harness.translate("{\(Self.web),\(members)}")
    }

    @Test func minimalMessage() {
        let records = webpush(#""message":{"title":"T"},"web":{"navigate":"https://e.x/"}"#)
        #expect(records.formats == ["webpush"])
        #expect(
            records.output(.webpush)?.text
                == #"{"web_push":8030,"notification":{"title":"T","navigate":"https://e.x/"}}"#)
        #expect(records.first?.topic == "push.webpush")
    }

    @Test func notificationMembersInSpecOrder() {
        let json =
            #""message":{"title":"T","body":"B"},"collapse_id":"c","data":{"k":1},"web":{"mutable":true,"app_badge":2,"require_interaction":true,"silent":true,"icon":"https://e.x/i.png","navigate":"https://e.x/","dir":"rtl","lang":"he"},"actions":[{"type":"url","name":"Go","value":"https://e.x/go"}]"#
        #expect(
            webpush(json).output(.webpush)?.text
                == #"{"web_push":8030,"notification":{"title":"T","lang":"he","dir":"rtl","body":"B","navigate":"https://e.x/","icon":"https://e.x/i.png","tag":"c","silent":true,"requireInteraction":true,"data":{"k":1},"actions":[{"action":"Go","title":"Go","navigate":"https://e.x/go"}]},"app_badge":2,"mutable":true}"#
        )
    }

    @Test func navigateFallsBackToAnHTTPURLAction() {
        let records = webpush(#""message":{"title":"T"},"action":{"type":"url","value":"http://e.x/a"}"#)
        #expect(records.output(.webpush)?.text.contains(#""navigate":"http://e.x/a""#) == true)
    }

    @Test func customSchemeActionIsNoNavigate() {
        let records = Harness.translate(
            #"{"platform":{"web":true},"message":{"title":"T","body":"B"},"action":{"type":"url","value":"app://x"}}"#)
        #expect(records.formats == ["apns", "android-expandable", "dead-letter"])
        #expect(records.errorCodes == ["missing_field /web/navigate"])
        #expect(records.deadLetters.first?.header("pushgate-format") == "webpush")
        #expect(records.deadLetters.first?.header("__connect.errors.stage") == "emit")
    }

    @Test func titleAndNavigateAreRequired() {
        #expect(
            webpush(#""message":{"body":"B"}"#).errorCodes == [
                "missing_field /message/title", "missing_field /web/navigate",
            ])
    }

    @Test func onlyHTTPURLButtonsAreKeptOthersWarn() {
        let json =
            #""message":{"title":"T"},"web":{"navigate":"https://e.x/"},"actions":[{"type":"dial","name":"C","value":"1"},{"type":"url","name":"U","value":"https://e.x/u"},{"type":"url","name":"A","value":"app://u"}]"#
        let output = webpush(json).output(.webpush)
        #expect(output?.codes == ["unsupported_action /actions/0", "unsupported_action /actions/2"])
        #expect(output?.text.contains(#""actions":[{"action":"U","title":"U","navigate":"https://e.x/u"}]"#) == true)
    }

    @Test func headersFromDeliveryOptions() {
        let output = webpush(
            #""message":{"title":"T","priority":"high","ttl":60},"web":{"navigate":"https://e.x/","topic":"t1"}"#
        ).output(.webpush)
        #expect(output?.header("webpush-ttl") == "60")
        #expect(output?.header("webpush-urgency") == "high")
        #expect(output?.header("webpush-topic") == "t1")
        #expect(output?.headerNames.contains { $0.hasPrefix("apns-") } == false)
        #expect(
            output?.headerNames == [
                "pushgate-id", "pushgate-format", "pushgate-source", "webpush-ttl", "webpush-urgency", "webpush-topic",
            ])
    }

    @Test func urgencyDefaultsToNormalAndWebUrgencyWins() {
        #expect(
            webpush(#""message":{"title":"T"},"web":{"navigate":"https://e.x/"}"#).first?.header("webpush-urgency")
                == "normal")
        let chosen = webpush(
            #""message":{"title":"T","priority":"high"},"web":{"navigate":"https://e.x/","urgency":"very-low"}"#)
        #expect(chosen.first?.header("webpush-urgency") == "very-low")
        #expect(chosen.first?.header("webpush-ttl") == "2419200")
    }

    @Test func webpushInputHeadersAreNotForwarded() {
        let records = Harness.translate(
            "{\(Self.web),\"message\":{\"title\":\"T\"},\"web\":{\"navigate\":\"https://e.x/\"}}",
            headers: [RecordHeader(name: "WEBPUSH-TTL", text: "1"), RecordHeader(name: "trace", text: "x")])
        #expect(records.first?.headerNames.filter { $0.lowercased() == "webpush-ttl" }.count == 1)
        #expect(records.first?.headerNames.first == "trace")
    }

    @Test func webFieldChecks() {
        let json =
            #""message":{"title":"T"},"web":{"navigate":"https:x","icon":"ftp://e.x/i","lang":"","dir":"up","silent":1,"app_badge":-1,"urgency":"now","topic":"a b","extra":1}"#
        #expect(
            webpush(json).errorCodes == [
                "out_of_range /web/app_badge", "invalid_value /web/dir", "unknown_field /web/extra",
                "invalid_url /web/icon", "out_of_range /web/lang", "invalid_url /web/navigate",
                "wrong_type /web/silent", "invalid_value /web/topic", "invalid_value /web/urgency",
            ])
    }

    @Test func topicLengthIsOutOfRangeOnly() {
        let long = String(repeating: "é", count: 33)
        #expect(
            webpush(#""message":{"title":"T"},"web":{"navigate":"https://e.x/","topic":"\#(long)"}"#).errorCodes == [
                "out_of_range /web/topic"
            ])
        let max = String(repeating: "_", count: 32)
        #expect(
            webpush(#""message":{"title":"T"},"web":{"navigate":"https://e.x/","topic":"\#(max)"}"#).first?.header(
                "webpush-topic") == max)
    }

    @Test func appBadgeIsAnIntegerUpTo2To53Minus1WrittenAsGiven() {
        #expect(
            webpush(#""message":{"title":"T"},"web":{"navigate":"https://e.x/","app_badge":1.0}"#).errorCodes == [
                "wrong_type /web/app_badge"
            ])
        #expect(
            webpush(#""message":{"title":"T"},"web":{"navigate":"https://e.x/","app_badge":9007199254740992}"#)
                .errorCodes
                == ["out_of_range /web/app_badge"])
        #expect(
            webpush(#""message":{"title":"T"},"web":{"navigate":"https://e.x/","app_badge":-0}"#).output(.webpush)?.text
                .hasSuffix(#","app_badge":-0}"#) == true)
    }

    @Test func platformWebDefaultsToFalseAndRoutes() {
        #expect(Harness.translate(#"{"message":{"title":"T","body":"B"}}"#).formats == ["apns", "android-expandable"])
        #expect(
            Harness.translate(#"{"platform":{"ios":false,"android":false},"message":{"title":"T"}}"#).errorCodes
                == ["no_target /platform"])
        #expect(
            Harness.translate(#"{"platform":{"ios":false,"android":false,"web":"yes"}}"#).errorCodes
                == ["wrong_type /platform/web"])
    }

    @Test func unusedWebAndUnsupportedFields() {
        let apns = Harness.translate(
            #"{"platform":{"android":false},"message":{"title":"T"},"web":{"navigate":"https://e.x/"}}"#)
        #expect(apns.output(.apns)?.codes == ["unused_field /web"])
        let web = webpush(
            #""message":{"title":"T","subtitle":"S"},"collapse_id":"c","web":{"navigate":"https://e.x/"}"#)
        #expect(web.output(.webpush)?.codes == ["unused_field /message/subtitle"])
    }

    @Test func limitIs3993Bytes() {
        func payload(_ size: Int) -> String {
            let frame = #"{"web_push":8030,"notification":{"title":"T","body":"","navigate":"https://e.x/"}}"#
            let body = String(repeating: "x", count: size - frame.utf8.count)
            return #""message":{"title":"T","body":"\#(body)"},"web":{"navigate":"https://e.x/"}"#
        }
        #expect(webpush(payload(3993)).output(.webpush)?.value.count == 3993)
        #expect(webpush(payload(3994)).errorCodes == ["payload_too_large "])
    }

    @Test func targetsNameWebpush() {
        let records = Harness.translate(
            #"{"targets":["webpush","apns"],"message":{"title":"T"},"web":{"navigate":"https://e.x/"}}"#)
        #expect(records.formats == ["apns", "webpush"])
        #expect(records.output(.apns)?.header("webpush-ttl") == nil)
    }
}
