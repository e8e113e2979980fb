import PushDelivery
import Testing

/// The JSON Lines of `pushgate devices put` and `list` (SPEC 10.8).
struct DirectoryLinesTests {
    static let parser = DirectoryRecordParser(rules: DirectoryRules(apnsBundleIDGiven: true))

    static func registration(_ line: String) -> Result<DirectoryLines.Registration, DirectoryViolation> {
        DirectoryLines.registration(Array(line.utf8), parser: parser)
    }

    @Test func aLineBecomesItsIdAndTheRestOfItsMembersAsGiven() throws {
        let line = #"{ "audience" : "u",  "id":"dev-1", "platform":"fcm","fcm":{"token" :"t"}, "mine":[1, 2.50]}"#
        let registration = try Self.registration(line).get()
        #expect(registration.id == "dev-1")
        #expect(
            String(decoding: registration.value, as: UTF8.self)
                == #"{"audience" : "u","platform":"fcm","fcm":{"token" :"t"},"mine":[1, 2.50]}"#)
    }

    @Test func aLineNamesItsFirstBrokenRule() {
        #expect(
            Self.registration(#"{"audience":"u","platform":"fcm","fcm":{"token":"t"}}"#)
                == .failure(
                    DirectoryViolation(.value(pointer: "/id"), "is required (the device id)")))
        #expect(
            Self.registration(#"{"id":7}"#) == .failure(DirectoryViolation(.value(pointer: "/id"), "must be a string")))
        #expect(
            Self.registration(#"{"id":""}"#)
                == .failure(
                    DirectoryViolation(.value(pointer: "/id"), "must be 1..512 UTF-8 bytes")))
        #expect(
            Self.registration(#"{"id":"d","platform":"fcm"}"#)
                == .failure(
                    DirectoryViolation(.value(pointer: "/audience"), "is required")))
        #expect(Self.registration("[]") == .failure(DirectoryViolation(.value(pointer: ""), "must be a JSON object")))
        #expect(
            Self.registration(#"{"id":"d","id":"e"}"#)
                == .failure(
                    DirectoryViolation(.value(pointer: "/id"), "has a duplicate member name")))
    }

    @Test func aListedLineHasTheIdFirstAndTheValueAsWritten() throws {
        let value = #"{"audience":"u", "platform":"fcm","id":"other","fcm":{"token":"t"}}"#
        let line = try #require(DirectoryLines.line(id: "dev\"1\n", value: Array(value.utf8)))
        #expect(
            String(decoding: line, as: UTF8.self)
                == #"{"id":"dev\"1\u000a","audience":"u","platform":"fcm","fcm":{"token":"t"}}"#)
        #expect(DirectoryLines.line(id: "d", value: Array("[1]".utf8)) == nil)
    }

    @Test func whatPutWritesListReadsBackTheSame() throws {
        let line = #"{"id":"dev-1","audience":"u","platform":"fcm","fcm":{"token":"t"},"x":{"y":null}}"#
        let registration = try Self.registration(line).get()
        let listed = try #require(DirectoryLines.line(id: registration.id, value: registration.value))
        #expect(String(decoding: listed, as: UTF8.self) == line)
    }
}
