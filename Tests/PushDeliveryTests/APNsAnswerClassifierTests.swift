import PushDelivery
import Testing

/// APNs answers classified by SPEC 10.6 and DELIVERY.md's tables (A4, D).
struct APNsAnswerClassifierTests {
    let apnsID = "c4cdb6b0-9441-8a55-842d-4dccbf76425c"
    let now: Int64 = 784_111_777

    func classify(_ status: Int, _ body: String? = nil, headers: [(name: String, value: String)] = []) -> PushAnswer {
        let answer = HTTPAnswer(status: status, headers: headers, body: body.map { Array($0.utf8) } ?? [])
        return APNsAnswerClassifier.classify(.answered(answer), apnsID: apnsID, now: now)
    }

    func reason(_ text: String) -> String { #"{"reason":"\#(text)"}"# }

    @Test func twoHundredIsDeliveredWithTheAnswersApnsID() {
        #expect(
            classify(200, headers: [(name: "apns-id", value: "0a0a0a0a-0000-8000-8000-000000000000")])
                == .final(.delivered, AnswerDetails(status: 200, apnsID: "0a0a0a0a-0000-8000-8000-000000000000")))
        #expect(classify(200, "not json") == .final(.delivered, AnswerDetails(status: 200, apnsID: apnsID)))
    }

    @Test(arguments: ["Unregistered", "ExpiredToken"])
    func fourTenIsGoneSinceItsTimestamp(reason: String) {
        #expect(
            classify(410, #"{"reason":"\#(reason)","timestamp":1700000000123}"#)
                == .final(
                    .gone, AnswerDetails(status: 410, reason: reason, goneSince: 1_700_000_000_123, apnsID: apnsID)))
    }

    @Test func aTimestampMayBeAFractionOrAStringAndAnythingElseIsIgnored() {
        #expect(
            classify(410, #"{"reason":"Unregistered","timestamp":1700000000123.9}"#).details.goneSince
                == 1_700_000_000_123)
        #expect(
            classify(410, #"{"reason":"Unregistered","timestamp":"1700000000123"}"#).details.goneSince
                == 1_700_000_000_123)
        #expect(classify(410, #"{"reason":"Unregistered","timestamp":true}"#).details.goneSince == nil)
        #expect(classify(410, #"{"reason":"Unregistered","timestamp":1e300}"#).details.goneSince == nil)
        #expect(classify(410, #"{"reason":7}"#) == .final(.gone, AnswerDetails(status: 410, apnsID: apnsID)))
    }

    @Test func badDeviceTokenIsGone() {
        #expect(
            classify(400, reason("BadDeviceToken"))
                == .final(.gone, AnswerDetails(status: 400, reason: "BadDeviceToken", apnsID: apnsID)))
    }

    @Test(arguments: [
        (400, "BadCollapseId"), (400, "BadExpirationDate"), (400, "BadMessageId"), (400, "BadPriority"),
        (400, "BadTopic"), (400, "DeviceTokenNotForTopic"), (400, "DuplicateHeaders"), (400, "IdleTimeout"),
        (400, "InvalidPushType"), (400, "MissingDeviceToken"), (400, "MissingTopic"), (400, "PayloadEmpty"),
        (400, "TopicDisallowed"), (400, "MissingChannelId"), (404, "BadPath"), (405, "MethodNotAllowed"),
        (413, "PayloadTooLarge"), (401, "Whatever"), (301, "Moved"),
    ])
    func otherClientErrorsAreRejectedWithTheirReason(status: Int, reason: String) {
        #expect(
            classify(status, self.reason(reason))
                == .final(.rejected, AnswerDetails(status: status, reason: reason, apnsID: apnsID)))
    }

    @Test(arguments: [
        "ExpiredProviderToken", "InvalidProviderToken", "MissingProviderToken", "BadCertificate",
        "BadCertificateEnvironment", "Forbidden", "UnrelatedKeyIdInToken", "BadEnvironmentKeyIdInToken",
        "TopicMismatch",
    ])
    func fourOThreeIsCredentials(reason: String) {
        #expect(
            classify(403, self.reason(reason))
                == .credentials(AnswerDetails(status: 403, reason: reason, apnsID: apnsID)))
    }

    @Test func onlyExpiredProviderTokenAsksForANewToken() {
        #expect(
            APNsAnswerClassifier.asksForNewToken(
                HTTPAnswer(status: 403, body: Array(reason("ExpiredProviderToken").utf8))))
        #expect(
            !APNsAnswerClassifier.asksForNewToken(
                HTTPAnswer(status: 403, body: Array(reason("InvalidProviderToken").utf8))))
        #expect(
            !APNsAnswerClassifier.asksForNewToken(
                HTTPAnswer(status: 400, body: Array(reason("ExpiredProviderToken").utf8))))
        #expect(!APNsAnswerClassifier.asksForNewToken(HTTPAnswer(status: 403, body: nil)))
    }

    @Test(arguments: [
        (429, "TooManyRequests"), (429, "TooManyProviderTokenUpdates"), (500, "InternalServerError"), (502, ""),
        (503, "ServiceUnavailable"), (503, "Shutdown"), (504, ""), (408, ""),
    ])
    func throttlingAndServerErrorsAreTransient(status: Int, reason: String) {
        let answer = classify(status, reason.isEmpty ? "" : self.reason(reason))
        #expect(
            answer
                == .transient(
                    AnswerDetails(status: status, reason: reason.isEmpty ? nil : reason, apnsID: apnsID),
                    retryAfter: nil))
    }

    @Test func retryAfterIsReadInSecondsOrAsADate() {
        let seconds = classify(429, reason("TooManyRequests"), headers: [(name: "Retry-After", value: "7")])
        #expect(
            seconds
                == .transient(
                    AnswerDetails(status: 429, reason: "TooManyRequests", apnsID: apnsID), retryAfter: .seconds(7)))
        let date = classify(503, "", headers: [(name: "retry-after", value: "Sun, 06 Nov 1994 08:50:37 GMT")])
        #expect(date == .transient(AnswerDetails(status: 503, apnsID: apnsID), retryAfter: .seconds(60)))
        let unreadable = classify(503, "", headers: [(name: "retry-after", value: "later")])
        #expect(unreadable == .transient(AnswerDetails(status: 503, apnsID: apnsID), retryAfter: nil))
    }

    @Test func aBodyThatIsNotJSONGivesAReasonOfItsOwn() {
        #expect(
            classify(400, "<html>bad</html>")
                == .final(.rejected, AnswerDetails(status: 400, reason: "answer_not_json", apnsID: apnsID)))
        #expect(
            classify(502, "\u{0}\u{FF}")
                == .transient(AnswerDetails(status: 502, reason: "answer_not_json", apnsID: apnsID), retryAfter: nil))
        #expect(classify(403, "[1,2]").details.reason == "answer_not_json")
        #expect(
            classify(410, String(repeating: "[", count: 10_000))
                == .final(.gone, AnswerDetails(status: 410, reason: "answer_not_json", apnsID: apnsID)))
        let unreadable = APNsAnswerClassifier.classify(
            .answered(HTTPAnswer(status: 400, body: nil)), apnsID: nil, now: now)
        #expect(unreadable == .final(.rejected, AnswerDetails(status: 400, reason: "answer_unreadable")))
    }

    @Test(arguments: HTTPFailure.Kind.allCases)
    func noAnswerIsTransientWithTheFailuresName(kind: HTTPFailure.Kind) {
        let answer = APNsAnswerClassifier.classify(.failed(HTTPFailure(kind: kind)), apnsID: apnsID, now: now)
        #expect(answer == .transient(AnswerDetails(reason: kind.rawValue, apnsID: apnsID), retryAfter: nil))
    }
}
