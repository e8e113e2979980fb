import PushDelivery
import Testing

/// Push services' answers classified by SPEC 10.6's web push rows and DELIVERY.md C4.
struct WebPushAnswerClassifierTests {
    let now: Int64 = 784_111_777

    func classify(_ status: Int, _ body: String = "", headers: [(name: String, value: String)] = []) -> PushAnswer {
        WebPushAnswerClassifier.classify(
            .answered(HTTPAnswer(status: status, headers: headers, body: Array(body.utf8))), now: now)
    }

    @Test(arguments: [(201, "Created"), (202, "Accepted"), (200, "OK"), (204, "No Content")])
    func twoHundredsAreDeliveredWithTheLocation(status: Int, phrase: String) {
        #expect(
            classify(status, headers: [(name: "Location", value: "https://push.example/m/1")])
                == .final(
                    .delivered, AnswerDetails(status: status, reason: phrase, location: "https://push.example/m/1")))
    }

    @Test(arguments: [(404, "Not Found"), (410, "Gone")])
    func fourOFourAndFourTenAreGone(status: Int, phrase: String) {
        #expect(
            classify(status, #"{"code":404,"errno":102}"#)
                == .final(.gone, AnswerDetails(status: status, reason: phrase)))
    }

    @Test(arguments: [
        (400, "Bad Request"), (413, "Content Too Large"), (405, "Method Not Allowed"),
        (301, "Moved Permanently"), (415, "Unsupported Media Type"),
    ])
    func badRequestsAreRejected(status: Int, phrase: String) {
        #expect(classify(status) == .final(.rejected, AnswerDetails(status: status, reason: phrase)))
    }

    @Test(arguments: [(401, "Unauthorized"), (403, "Forbidden")])
    func vapidRefusalsPauseTheKey(status: Int, phrase: String) {
        #expect(
            classify(status, #"{"reason":"BadJwtToken"}"#)
                == .credentials(AnswerDetails(status: status, reason: phrase)))
    }

    @Test(arguments: [429, 500, 502, 503, 504, 408])
    func overloadAndServerErrorsAreRetriedAfterRetryAfter(status: Int) {
        #expect(
            classify(status, headers: [(name: "retry-after", value: "7")])
                == .transient(
                    AnswerDetails(status: status, reason: WebPushAnswerClassifier.reasonPhrase(status)),
                    retryAfter: .seconds(7)))
        #expect(
            classify(status)
                == .transient(
                    AnswerDetails(status: status, reason: WebPushAnswerClassifier.reasonPhrase(status)), retryAfter: nil
                ))
    }

    @Test func anHTTPDateRetryAfterCountsFromNow() {
        guard
            case .transient(_, let retryAfter) = classify(
                503, headers: [(name: "Retry-After", value: "Sun, 06 Nov 1994 08:49:37 GMT")])
        else {
            Issue.record("not transient")
            return
        }
        #expect(retryAfter == .seconds(784_111_777 - now))
    }

    @Test func anHTMLErrorPageIsClassifiedByItsStatus() {
        let page = "<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1>\u{0}\u{FFFD}</body></html>"
        #expect(classify(502, page) == .transient(AnswerDetails(status: 502, reason: "Bad Gateway"), retryAfter: nil))
        #expect(classify(410, page) == .final(.gone, AnswerDetails(status: 410, reason: "Gone")))
        #expect(classify(403, page) == .credentials(AnswerDetails(status: 403, reason: "Forbidden")))
        #expect(classify(400, page) == .final(.rejected, AnswerDetails(status: 400, reason: "Bad Request")))
        let unreadable = WebPushAnswerClassifier.classify(
            .answered(HTTPAnswer(status: 201, body: nil)), now: now)
        #expect(unreadable == .final(.delivered, AnswerDetails(status: 201, reason: "Created")))
    }

    @Test func noAnswerIsTransientWithItsKind() {
        #expect(
            WebPushAnswerClassifier.classify(.failed(HTTPFailure(kind: .connectionClosed)), now: now)
                == .transient(AnswerDetails(reason: "connection_closed"), retryAfter: nil))
    }
}
