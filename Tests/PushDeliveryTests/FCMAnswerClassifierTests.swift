import PushDelivery
import Testing

/// Every FCM row of SPEC 10.6, with the `errorCode` read from `error.details` (DELIVERY.md B3).
struct FCMAnswerClassifierTests {
    static func error(_ status: Int, _ canonical: String, code: String?) -> [UInt8] {
        let details =
            code.map {
                #",{"@type":"type.googleapis.com/google.rpc.BadRequest"},{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"\#($0)"}"#
            } ?? ""
        return Array(
            #"{"error":{"code":\#(status),"message":"m","status":"\#(canonical)","details":[{"@type":"x"}\#(details)]}}"#
                .utf8)
    }

    func classify(
        _ status: Int, _ canonical: String = "", code: String? = nil, headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil, validateOnly: Bool = false
    ) -> PushAnswer {
        FCMAnswerClassifier.classify(
            HTTPAnswer(status: status, headers: headers, body: body ?? Self.error(status, canonical, code: code)),
            validateOnly: validateOnly, now: 1_800_000_000)
    }

    @Test func twoHundredIsDeliveredWithTheMessageName() {
        let body = Array(#"{"name":"projects/shop/messages/0:1500415314455276%31bd1c9631bd1c96"}"#.utf8)
        #expect(
            classify(200, body: body)
                == .final(
                    .delivered,
                    AnswerDetails(status: 200, messageID: "projects/shop/messages/0:1500415314455276%31bd1c9631bd1c96"))
        )
        #expect(classify(200, body: body, validateOnly: true).details.messageID != nil)
        #expect(
            classify(200, body: Array(#"{"name":"projects/shop/messages/fake_message_id"}"#.utf8), validateOnly: true)
                == .final(.validated, AnswerDetails(status: 200, messageID: "projects/shop/messages/fake_message_id")))
        #expect(classify(200, body: Array("not json".utf8)) == .final(.delivered, AnswerDetails(status: 200)))
    }

    @Test func unregisteredIsGone() {
        #expect(
            classify(404, "NOT_FOUND", code: "UNREGISTERED")
                == .final(.gone, AnswerDetails(status: 404, reason: "UNREGISTERED")))
        // A 404 that is not about the token (a wrong project or path) must not make the application delete it.
        #expect(classify(404, "NOT_FOUND") == .final(.rejected, AnswerDetails(status: 404, reason: "NOT_FOUND")))
    }

    @Test func invalidArgumentAndSenderIDMismatchAreRejected() {
        #expect(
            classify(400, "INVALID_ARGUMENT", code: "INVALID_ARGUMENT")
                == .final(.rejected, AnswerDetails(status: 400, reason: "INVALID_ARGUMENT")))
        #expect(
            classify(400, "INVALID_ARGUMENT")
                == .final(.rejected, AnswerDetails(status: 400, reason: "INVALID_ARGUMENT")))
        #expect(
            classify(403, "PERMISSION_DENIED", code: "SENDER_ID_MISMATCH")
                == .final(.rejected, AnswerDetails(status: 403, reason: "SENDER_ID_MISMATCH")))
        #expect(classify(413, body: []) == .final(.rejected, AnswerDetails(status: 413)))
    }

    @Test func credentialProblemsPauseTheProject() {
        #expect(
            classify(401, "UNAUTHENTICATED", code: "THIRD_PARTY_AUTH_ERROR")
                == .credentials(AnswerDetails(status: 401, reason: "THIRD_PARTY_AUTH_ERROR")))
        #expect(
            classify(401, "UNAUTHENTICATED") == .credentials(AnswerDetails(status: 401, reason: "UNAUTHENTICATED")))
        #expect(
            classify(403, "PERMISSION_DENIED")
                == .credentials(AnswerDetails(status: 403, reason: "PERMISSION_DENIED")))
        #expect(
            classify(403, "PERMISSION_DENIED", code: "APNS_AUTH_ERROR")
                == .credentials(AnswerDetails(status: 403, reason: "APNS_AUTH_ERROR")))
    }

    @Test func onlyA401WithoutThirdPartyAuthErrorAsksForANewAccessToken() {
        #expect(
            FCMAnswerClassifier.asksForNewAccessToken(
                HTTPAnswer(status: 401, body: Self.error(401, "UNAUTHENTICATED", code: nil))))
        #expect(FCMAnswerClassifier.asksForNewAccessToken(HTTPAnswer(status: 401, body: Array("<html>".utf8))))
        #expect(
            !FCMAnswerClassifier.asksForNewAccessToken(
                HTTPAnswer(status: 401, body: Self.error(401, "UNAUTHENTICATED", code: "THIRD_PARTY_AUTH_ERROR"))))
        #expect(!FCMAnswerClassifier.asksForNewAccessToken(HTTPAnswer(status: 403, body: [])))
    }

    @Test func quotaUnavailableAndInternalAreTransientWithRetryAfter() {
        #expect(
            classify(429, "RESOURCE_EXHAUSTED", code: "QUOTA_EXCEEDED", headers: [(name: "Retry-After", value: "60")])
                == .transient(AnswerDetails(status: 429, reason: "QUOTA_EXCEEDED"), retryAfter: .seconds(60)))
        #expect(
            classify(
                503, "UNAVAILABLE", code: "UNAVAILABLE",
                headers: [(name: "retry-after", value: "Fri, 15 Jan 2027 08:00:10 GMT")])
                == .transient(AnswerDetails(status: 503, reason: "UNAVAILABLE"), retryAfter: .seconds(10)))
        #expect(
            classify(500, "INTERNAL", code: "INTERNAL")
                == .transient(AnswerDetails(status: 500, reason: "INTERNAL"), retryAfter: nil))
        #expect(classify(429, body: []) == .transient(AnswerDetails(status: 429), retryAfter: nil))
    }

    @Test func anHTMLErrorPageIsClassifiedByItsStatus() {
        let page = Array("<html><body>502 Bad Gateway</body></html>".utf8)
        #expect(
            classify(502, body: page)
                == .transient(AnswerDetails(status: 502, reason: "answer_not_json"), retryAfter: nil))
        #expect(classify(400, body: page) == .final(.rejected, AnswerDetails(status: 400, reason: "answer_not_json")))
        #expect(classify(404, body: page) == .final(.rejected, AnswerDetails(status: 404, reason: "answer_not_json")))
        #expect(classify(403, body: page) == .credentials(AnswerDetails(status: 403, reason: "answer_not_json")))
    }

    @Test func anUnreadableBodyAndNoAnswerAreNamed() {
        #expect(
            FCMAnswerClassifier.classify(HTTPAnswer(status: 500, body: nil), validateOnly: false, now: 0)
                == .transient(AnswerDetails(status: 500, reason: "answer_unreadable"), retryAfter: nil))
        #expect(
            FCMAnswerClassifier.classify(.failed(HTTPFailure(kind: .timeout)), validateOnly: false, now: 0)
                == .transient(AnswerDetails(reason: "timeout"), retryAfter: nil))
    }

    @Test func theErrorCodeComesFromTheFcmErrorDetailOnly() {
        let wrongType = Array(
            #"{"error":{"status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/other","errorCode":"UNREGISTERED"}]}}"#
                .utf8)
        #expect(classify(404, body: wrongType) == .final(.rejected, AnswerDetails(status: 404, reason: "NOT_FOUND")))
    }
}
