import Testing

@testable import PushTranslation

/// The URL rules' character classes (bit masks) against RFC 3986's definitions, for every byte value.
@Suite struct URLRulesTests {
    private static let unreserved = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    private static let subDelimiters = Set("!$&'()*+,;=".utf8)

    private static func expectClass(_ characterClass: URLRules.CharacterClass, _ members: Set<UInt8>) {
        for byte in UInt8.min...UInt8.max {
            #expect(characterClass.contains(byte) == members.contains(byte), "byte \(byte)")
        }
    }

    @Test func eachCharacterClassHoldsExactlyItsRFC3986Characters() {
        let hostCharacters = Self.unreserved.union(Self.subDelimiters)
        Self.expectClass(.host, hostCharacters)
        Self.expectClass(.userInfo, hostCharacters.union(":".utf8))
        Self.expectClass(.pathOrSlash, hostCharacters.union(":@/".utf8))
        Self.expectClass(.query, hostCharacters.union(":@/?".utf8))
    }

    @Test func anHTTPURLHasAPortOfAtMost65535AndNoIPvFutureHostButStaysAnAbsoluteURI() {
        for url in Version4URLAndTopicTests.refusedByBrowsers {
            #expect(!URLRules.isImageURL(url), "\(url)")
            #expect(URLRules.isAbsoluteURI(url), "\(url)")
        }
        for url in Version4URLAndTopicTests.accepted { #expect(URLRules.isImageURL(url), "\(url)") }
        #expect(URLRules.isAbsoluteURI("myapp://[v1.x]:99999/"))
    }
}
