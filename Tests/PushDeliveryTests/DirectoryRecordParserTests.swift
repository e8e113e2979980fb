import PushDelivery
import Testing

/// Every rule of SPEC 10.1 for one directory record: what is valid, and the first broken rule otherwise.
struct DirectoryRecordParserTests {
    static let token = String(repeating: "a1B2", count: 16)  // 64 hex digits: 32 bytes
    /// RFC 8291 Appendix A's user agent public key: a point on P-256.
    static let p256dh = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let auth = "AAECAwQFBgcICQoLDA0ODw"
    static let parser = DirectoryRecordParser()

    static func entry(
        _ value: String?, key: String? = "device-1", parser: DirectoryRecordParser = parser
    ) -> DirectoryEntry {
        parser.entry(key: key.map { Array($0.utf8) }, value: value.map { Array($0.utf8) })
    }

    /// The violation's text (`POINTER: RULE`), or `nil` when the record is valid.
    static func violation(_ value: String?, key: String? = "device-1", parser: DirectoryRecordParser = parser)
        -> String?
    {
        if case .invalid(_, let violation) = entry(value, key: key, parser: parser) { return violation.description }
        return nil
    }

    static func device(_ value: String, parser: DirectoryRecordParser = parser) -> Device? {
        if case .device(let device) = entry(value, parser: parser) { return device }
        return nil
    }

    static func apns(_ members: String = "", app: String? = "com.example.app") -> String {
        let appMember = app.map { #""app":"\#($0)","# } ?? ""
        return #"{"audience":"user-1","platform":"apns",\#(appMember)"apns":{"token":"\#(token)"\#(members)}}"#
    }

    static func webpush(
        endpoint: String = "https://fcm.googleapis.com/fcm/send/abc", p256dh: String = p256dh,
        auth: String = auth, extra: String = ""
    )
        -> String
    {
        #"{"audience":"u","platform":"webpush","webpush":{"subscription":{"endpoint":"\#(endpoint)","#
            + #""keys":{"p256dh":"\#(p256dh)","auth":"\#(auth)"}\#(extra)}}}"#
    }

    // MARK: Valid values

    @Test func anAPNsDeviceIsReadWithItsTokenLowercasedAndProductionByDefault() throws {
        let device = try #require(Self.device(Self.apns()))
        #expect(device.id == "device-1" && device.audience == "user-1" && device.app == "com.example.app")
        #expect(device.address == .apns(token: Self.token.lowercased(), environment: .production))
        #expect(
            Self.device(Self.apns(#","environment":"development""#))?.address
                == .apns(token: Self.token.lowercased(), environment: .development))
    }

    @Test func anFCMDeviceNeedsNoAppWithOneCredential() throws {
        let device = try #require(Self.device(#"{"audience":"u","platform":"fcm","fcm":{"token":"t:1"}}"#))
        #expect(device.address == .fcm(token: "t:1") && device.app == nil)
    }

    @Test func aWebPushSubscriptionIsDecodedPaddingAndOtherMembersIgnored() throws {
        let device = try #require(Self.device(Self.webpush(extra: #","expirationTime":null"#)))
        guard case .webpush(let subscription) = device.address else {
            Issue.record("not a web push address")
            return
        }
        #expect(subscription.endpoint == "https://fcm.googleapis.com/fcm/send/abc")
        #expect(subscription.p256dh == Base64URLCoding.decode(Self.p256dh) && subscription.auth == Array(0..<16))
        #expect(Self.device(Self.webpush(p256dh: Self.p256dh + "=", auth: Self.auth + "==")) == device)
    }

    @Test func otherMembersAndAnotherPlatformsMemberAreIgnored() {
        let value = #"{"audience":"u","platform":"fcm","fcm":{"token":"t","x":1},"apns":7,"mine":{"a":[1,2]}}"#
        #expect(Self.device(value)?.address == .fcm(token: "t"))
    }

    @Test func aNullValueIsATombstone() {
        #expect(Self.entry(nil) == .tombstone(id: "device-1"))
    }

    @Test func aNullOptionalMemberCountsAsAbsent() {
        #expect(
            Self.device(Self.apns(#","environment":null"#))?.address
                == .apns(token: Self.token.lowercased(), environment: .production))
    }

    // MARK: The key

    @Test func theKeyMustBeOneTo512UTF8Bytes() {
        #expect(Self.violation(Self.apns(), key: nil) == "key: is missing (a null key)")
        #expect(Self.violation(Self.apns(), key: "") == "key: must be 1..512 UTF-8 bytes")
        #expect(
            Self.violation(Self.apns(), key: String(repeating: "k", count: 513)) == "key: must be 1..512 UTF-8 bytes")
        #expect(Self.violation(Self.apns(), key: String(repeating: "é", count: 256)) == nil)  // 512 bytes
        #expect(Self.violation(Self.apns(), key: String(repeating: "é", count: 256) + "k") != nil)
        let invalid = DirectoryRecordParser().entry(key: [0xC3, 0x28], value: nil)
        #expect(invalid == .invalid(id: nil, DirectoryViolation(.key, "is not valid UTF-8")))
    }

    // MARK: The value

    @Test func theValueMustBeAJSONObject() {
        #expect(Self.violation("[1]") == "value: must be a JSON object or null")
        #expect(Self.violation(#""text""#) == "value: must be a JSON object or null")
        #expect(Self.violation("") == "value: is not JSON: a value is missing")
        #expect(Self.violation("{") == "value: is not JSON: a member name is missing")
        #expect(Self.violation(#"{"a":1} x"#) == "value: is not JSON: text after the value")
        #expect(Self.violation(#"{"a":01}"#) == "value: is not JSON: ',' or '}' is missing")
        #expect(Self.entry(nil, key: "k") == .tombstone(id: "k"))
        let bytes: [UInt8] = Array(#"{"audience":""#.utf8) + [0xFF] + Array(#""}"#.utf8)
        if case .invalid(_, let violation) = Self.parser.entry(key: Array("k".utf8), value: bytes) {
            #expect(violation.description == "value: is not valid UTF-8")
        } else {
            Issue.record("invalid UTF-8 accepted")
        }
    }

    @Test func aDuplicateMemberNameIsInvalidAtItsPointer() {
        #expect(Self.violation(#"{"audience":"a","audience":"b"}"#) == "/audience: has a duplicate member name")
        #expect(Self.violation(Self.apns(#","token":"00""#)) == "/apns/token: has a duplicate member name")
        // In an array, under a name to escape, and in an object of many members.
        #expect(Self.violation(#"{"x/y~":[1,{"a":1,"a":2}]}"#) == "/x~1y~0/1/a: has a duplicate member name")
        let many = (0..<20).map { #""m\#($0)":\#($0)"# }.joined(separator: ",")
        #expect(Self.violation(#"{\#(many),"deep":{"k":1},"m3":0}"#) == "/m3: has a duplicate member name")
        #expect(Self.violation(#"{\#(many),"deep":{"k":1,"k":2}}"#) == "/deep/k: has a duplicate member name")
    }

    @Test func stringsWithAndWithoutEscapesAreRead() {
        let entry = Self.entry(#"{"audience":"us\u0065r-\"1\"","platform":"fcm","fcm":{"token":"t\/1\u00e9"}}"#)
        #expect(
            entry == .device(Device(id: "device-1", audience: "user-\"1\"", app: nil, address: .fcm(token: "t/1é"))))
        #expect(Self.violation("{\"audience\":\"a\u{01}\"}") == "value: is not JSON: a control character in a string")
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        #expect(Self.violation(#"{"mine":\#(deep)}"#) == "value: is not JSON: nested too deep")
    }

    @Test func audienceIsARequiredStringOfOneTo512Bytes() {
        #expect(Self.violation(#"{"platform":"fcm","fcm":{"token":"t"}}"#) == "/audience: is required")
        #expect(Self.violation(#"{"audience":null,"platform":"fcm","fcm":{"token":"t"}}"#) == "/audience: is required")
        #expect(
            Self.violation(#"{"audience":5,"platform":"fcm","fcm":{"token":"t"}}"#) == "/audience: must be a string")
        #expect(
            Self.violation(#"{"audience":"","platform":"fcm","fcm":{"token":"t"}}"#)
                == "/audience: must be 1..512 UTF-8 bytes")
        let long = String(repeating: "a", count: 513)
        #expect(
            Self.violation(#"{"audience":"\#(long)","platform":"fcm","fcm":{"token":"t"}}"#)
                == "/audience: must be 1..512 UTF-8 bytes")
        let longest = String(repeating: "a", count: 512)
        #expect(Self.violation(#"{"audience":"\#(longest)","platform":"fcm","fcm":{"token":"t"}}"#) == nil)
    }

    @Test func platformIsRequiredAndOneOfThree() {
        #expect(Self.violation(#"{"audience":"u"}"#) == "/platform: is required")
        #expect(Self.violation(#"{"audience":"u","platform":"APNS"}"#) == "/platform: must be apns, fcm or webpush")
        #expect(Self.violation(#"{"audience":"u","platform":["fcm"]}"#) == "/platform: must be a string")
    }

    @Test func appIsRequiredAsTheConfigurationSays() {
        let noBundleID = DirectoryRecordParser(rules: DirectoryRules(apnsBundleIDGiven: false))
        let bundleID = DirectoryRecordParser(rules: DirectoryRules(apnsBundleIDGiven: true))
        #expect(
            Self.violation(Self.apns(app: nil), parser: noBundleID)
                == "/app: is required (the app's bundle id) when --apns-bundle-id is not given")
        #expect(Self.violation(Self.apns(app: nil), parser: bundleID) == nil)
        let fcm = #"{"audience":"u","platform":"fcm","fcm":{"token":"t"}}"#
        #expect(Self.violation(fcm, parser: DirectoryRecordParser(rules: DirectoryRules(fcmCredentialCount: 1))) == nil)
        #expect(
            Self.violation(fcm, parser: DirectoryRecordParser(rules: DirectoryRules(fcmCredentialCount: 2)))
                == "/app: is required (the Firebase project id) when more than one --fcm-credentials is given")
        let twoKeys = DirectoryRecordParser(rules: DirectoryRules(vapidKeyCount: 2))
        #expect(
            Self.violation(Self.webpush(), parser: twoKeys)
                == "/app: is required (the VAPID key's name) when more than one --vapid-key is given")
        #expect(
            Self.violation(Self.webpush(), parser: DirectoryRecordParser(rules: DirectoryRules(vapidKeyCount: 1)))
                == nil)
        #expect(Self.violation(Self.apns(app: "")) == "/app: must not be empty")
        #expect(
            Self.violation(#"{"audience":"u","platform":"fcm","app":1,"fcm":{"token":"t"}}"#)
                == "/app: must be a string")
    }

    @Test func thePlatformsMemberIsARequiredObject() {
        #expect(Self.violation(#"{"audience":"u","platform":"fcm"}"#) == "/fcm: is required")
        #expect(Self.violation(#"{"audience":"u","platform":"fcm","fcm":"t"}"#) == "/fcm: must be an object")
        #expect(
            Self.violation(#"{"audience":"u","platform":"apns","app":"a","fcm":{"token":"t"}}"#) == "/apns: is required"
        )
    }

    @Test func anAPNsTokenIsAnEvenNumberOfHexDigitsOf32To200Bytes() {
        func tokenViolation(_ token: String) -> String? {
            Self.violation(#"{"audience":"u","platform":"apns","app":"a","apns":{"token":"\#(token)"}}"#)
        }
        #expect(tokenViolation(String(repeating: "ab", count: 32)) == nil)
        #expect(tokenViolation(String(repeating: "AB", count: 200)) == nil)
        #expect(
            tokenViolation(String(repeating: "ab", count: 31))
                == "/apns/token: must be 32..200 bytes once decoded (64..400 hex digits)")
        #expect(tokenViolation(String(repeating: "ab", count: 201)) != nil)
        #expect(
            tokenViolation(String(repeating: "ab", count: 32) + "a")
                == "/apns/token: must have an even number of digits")
        #expect(
            tokenViolation(String(repeating: "ab", count: 31) + "zz")
                == "/apns/token: must be hexadecimal digits (0-9, a-f, A-F)")
        #expect(tokenViolation("") != nil)
        #expect(
            Self.violation(#"{"audience":"u","platform":"apns","app":"a","apns":{}}"#) == "/apns/token: is required")
        #expect(
            Self.violation(#"{"audience":"u","platform":"apns","app":"a","apns":{"token":12}}"#)
                == "/apns/token: must be a string")
    }

    @Test func anAPNsEnvironmentIsProductionOrDevelopment() {
        #expect(
            Self.violation(Self.apns(#","environment":"sandbox""#))
                == "/apns/environment: must be production or development")
        #expect(Self.violation(Self.apns(#","environment":true"#)) == "/apns/environment: must be a string")
    }

    @Test func anFCMTokenIsOneTo4096Characters() {
        func fcm(_ token: String) -> String? {
            Self.violation(#"{"audience":"u","platform":"fcm","fcm":{"token":"\#(token)"}}"#)
        }
        #expect(fcm("") == "/fcm/token: must be 1..4096 characters")
        #expect(fcm(String(repeating: "t", count: 4096)) == nil)
        #expect(fcm(String(repeating: "é", count: 4096)) == nil)  // characters, not bytes
        #expect(fcm(String(repeating: "t", count: 4097)) == "/fcm/token: must be 1..4096 characters")
        #expect(Self.violation(#"{"audience":"u","platform":"fcm","fcm":{}}"#) == "/fcm/token: is required")
    }

    @Test func aWebPushSubscriptionsEndpointIsAnAbsoluteURL() {
        for endpoint in [
            "/relative/path", "push.example.com/x", "https://", "https:///x", "1http://h/", "https://h/a b",
        ] {
            #expect(
                Self.violation(Self.webpush(endpoint: endpoint))
                    == "/webpush/subscription/endpoint: must be an absolute URL",
                "\(endpoint)")
        }
        for endpoint in ["https://push.example.com", "http://127.0.0.1:8443/p?x=1", "https://u@[::1]:1/x"] {
            #expect(Self.violation(Self.webpush(endpoint: endpoint)) == nil, "\(endpoint)")
        }
        #expect(
            Self.violation(#"{"audience":"u","platform":"webpush","webpush":{}}"#)
                == "/webpush/subscription: is required")
        #expect(
            Self.violation(#"{"audience":"u","platform":"webpush","webpush":{"subscription":{"keys":{}}}}"#)
                == "/webpush/subscription/endpoint: is required")
    }

    @Test func aWebPushP256dhIsA65ByteUncompressedPoint() {
        let pointer = "/webpush/subscription/keys/p256dh"
        let rule = "must be a 65-byte uncompressed P-256 point (first byte 0x04)"
        #expect(Self.violation(Self.webpush(p256dh: String(Self.p256dh.dropLast(3)) + "Pw")) == "\(pointer): \(rule)")
        let compressedFirstByte = "BS" + Self.p256dh.dropFirst(2)
        #expect(Self.violation(Self.webpush(p256dh: compressedFirstByte)) == "\(pointer): \(rule)")
        #expect(
            Self.violation(Self.webpush(p256dh: Self.p256dh.replacing("-", with: "+")))
                == "\(pointer): must be base64url")
        #expect(Self.violation(Self.webpush(p256dh: "=" + Self.p256dh)) == "\(pointer): must be base64url")
    }

    @Test func aWebPushP256dhOffTheCurveIsIgnored() {
        let pointer = "/webpush/subscription/keys/p256dh"
        // 0x04 then the bytes 1 to 64: the right length and form, but no point of P-256.
        let offCurve = Base64URLCoding.encode([4] + Array(1...64))
        #expect(Self.violation(Self.webpush(p256dh: offCurve)) == "\(pointer): must be a point on P-256")
        // The last byte of a valid point changed: y no longer matches x.
        var bytes = Base64URLCoding.decode(Self.p256dh) ?? []
        bytes[64] ^= 1
        #expect(
            Self.violation(Self.webpush(p256dh: Base64URLCoding.encode(bytes)))
                == "\(pointer): must be a point on P-256")
        #expect(Self.violation(Self.webpush()) == nil)
    }

    @Test func aWebPushAuthIs16Bytes() {
        let pointer = "/webpush/subscription/keys/auth"
        #expect(
            Self.violation(Self.webpush(auth: "AAECAwQFBgcICQoLDA0O")) == "\(pointer): must be 16 bytes once decoded")
        #expect(Self.violation(Self.webpush(auth: "-__7__v_-__7__v_-__7_w")) == nil)
        #expect(Self.violation(Self.webpush(auth: "+//7//v/+//7//v/+//7/w")) == "\(pointer): must be base64url")
        #expect(Self.violation(Self.webpush(auth: "AAECAwQFBgcICQoLDA0OD")) == "\(pointer): must be base64url")  // 4n+1
    }

    @Test func aViolationNeverHoldsTheTokenOrKeys() {
        let values = [
            Self.apns(#","environment":"x""#), Self.webpush(auth: "AAEC"),
            #"{"audience":"u","platform":"fcm","fcm":{"token":"\#(String(repeating: "s", count: 5000))"}}"#,
        ]
        for value in values {
            let text = Self.violation(value) ?? ""
            #expect(!text.isEmpty && !text.contains(Self.token) && !text.contains("AAEC") && !text.contains("sss"))
        }
    }
}
