import Foundation
import PushDelivery
import Testing

/// The body of `messages:send` (SPEC 10.4): the token inserted as the first member of `message`, every other byte
/// of the value unchanged, whatever the value's whitespace, escapes and member order.
struct FCMMessageBodyTests {
    func body(_ value: String, token: String = "tok-1") -> Result<FCMMessageBody, FCMMessageBody.Refusal> {
        FCMMessageBody.make(token: token, value: Array(value.utf8))
    }

    func text(_ value: String, token: String = "tok-1") throws -> String {
        String(decoding: try body(value, token: token).get().bytes, as: UTF8.self)
    }

    @Test func theTokenIsTheFirstMemberOfMessage() throws {
        #expect(
            try text(#"{"message":{"data":{"a":"b"}}}"#) == #"{"message":{"token":"tok-1","data":{"a":"b"}}}"#)
        #expect(try text(#"{"message":{}}"#) == #"{"message":{"token":"tok-1"}}"#)
        #expect(try text(#"{"message":{ }}"#) == #"{"message":{"token":"tok-1" }}"#)
    }

    @Test func everyOtherByteIsKept() throws {
        let value =
            "{ \"validate_only\" : false ,\n\t\"message\"  :  {\n  \"data\" : {\"n\":\"1.50\"},\"x\":[1, 2e5, -0.5, true, null]\n}\n}\n"
        #expect(
            try text(value)
                == "{ \"validate_only\" : false ,\n\t\"message\"  :  {\"token\":\"tok-1\",\n  \"data\" : {\"n\":\"1.50\"},\"x\":[1, 2e5, -0.5, true, null]\n}\n}\n"
        )
    }

    @Test func messageNeedNotBeFirstAndNestedMessageStringsAreNotIt() throws {
        let value = #"{"note":"{\"message\":{","nested":{"message":{"a":1}},"message":{"data":{"message":"{}"}}}"#
        #expect(
            try text(value)
                == #"{"note":"{\"message\":{","nested":{"message":{"a":1}},"message":{"token":"tok-1","data":{"message":"{}"}}}"#
        )
    }

    @Test func anEscapedNameIsStillMessage() throws {
        #expect(try text(#"{"mess\u0061ge":{"a":"\"}"}}"#) == #"{"mess\u0061ge":{"token":"tok-1","a":"\"}"}}"#)
    }

    @Test func theLastMessageMemberIsTheOneFCMReads() throws {
        #expect(
            try text(#"{"message":{"a":1},"message":{"b":2}}"#)
                == #"{"message":{"a":1},"message":{"token":"tok-1","b":2}}"#)
    }

    @Test func theTokenIsWrittenAsAJSONString() throws {
        #expect(try text(#"{"message":{}}"#, token: "a\"b\\c\u{1}é") == #"{"message":{"token":"a\"b\\c\u0001é"}}"#)
    }

    @Test func validateOnlyTrueIsADryRun() throws {
        #expect(try body(#"{"validate_only":true,"message":{}}"#).get().validateOnly)
        #expect(try !body(#"{"validate_only":false,"message":{}}"#).get().validateOnly)
        #expect(try !body(#"{"message":{"validate_only":true}}"#).get().validateOnly)
        #expect(try !body(#"{"message":{}}"#).get().validateOnly)
        #expect(try !body(#"{"validate_only":"true","message":{}}"#).get().validateOnly)
    }

    @Test(arguments: [
        ("", FCMMessageBody.Refusal.notJSON), ("[]", .notJSON), (#"{"message":{}"#, .notJSON),
        (#"{"message":{}} x"#, .notJSON), (#"{"message":{"a":01}}"#, .notJSON), (#"{"message":{"a":"\x"}}"#, .notJSON),
        ("{\"message\":{\"a\":\"\u{1}\"}}", .notJSON), (#"{"message":{"a":tru}}"#, .notJSON),
        (#"{"message":{"a":1,}}"#, .notJSON), (#"{"data":{}}"#, .noMessage), (#"{"message":"x"}"#, .noMessage),
        (#"{"message":[{}]}"#, .noMessage), (#"{"message":{"token":"other"}}"#, .targetGiven),
        (#"{"message":{"topic":"news"}}"#, .targetGiven), (#"{"message":{"condition":"'a' in topics"}}"#, .targetGiven),
    ])
    func aValueWithoutAMessageObjectIsRefused(value: String, refusal: FCMMessageBody.Refusal) {
        #expect(body(value) == .failure(refusal))
    }

    @Test func aValueNestedTooDeeplyIsRefusedWithoutCrashing() {
        let deep =
            #"{"message":{"a":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            + "}}"
        #expect(body(deep) == .failure(.notJSON))
    }

    @Test func invalidUTF8IsRefused() {
        let value = Array(#"{"message":{"a":""#.utf8) + [0xFF] + Array(#""}}"#.utf8)
        #expect(FCMMessageBody.make(token: "t", value: value) == .failure(.notJSON))
    }
}
