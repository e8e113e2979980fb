import PushDelivery
import Testing

/// The endpoint allow-list of SPEC 10.5: strict reading of the endpoint, exact comparison of hosts, the default push
/// services and `--webpush-allow-host`.
struct WebPushAllowListTests {
    static let loopbackOnly = WebPushAllowList(adding: [.host("127.0.0.1")])

    static func allows(_ endpoint: String, _ list: WebPushAllowList = WebPushAllowList()) -> Bool {
        guard let parsed = WebPushEndpoint(endpoint) else { return false }
        return list.allows(parsed)
    }

    @Test(arguments: [
        "https://web.push.apple.com/QGuQyavXutnMH0", "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
        "https://wns2-by3p.notify.windows.com/w/?token=BQYAAA%3d%3d", "https://fcm.googleapis.com/fcm/send/dE:APA91b",
        "HTTPS://Web.Push.Apple.COM/x", "https://web.push.apple.com:443/x",
    ])
    func theBrowsersPushServicesAreAllowedByDefault(endpoint: String) {
        #expect(Self.allows(endpoint))
    }

    @Test(arguments: [
        "http://web.push.apple.com/x",  // not https
        "https://push.apple.com/x",  // the domain itself: only hosts ending in .push.apple.com
        "https://evilpush.apple.com/x", "https://web.push.apple.com.evil.example/x",
        "https://web.push.apple.com./x",  // trailing dot
        "https://fcm.googleapis.com.evil.example/send", "https://x.fcm.googleapis.com/send",
        "https://web.push.apple.com@169.254.169.254/latest/meta-data",  // userinfo
        "https://169.254.169.254#@web.push.apple.com/", "https://169.254.169.254\\@web.push.apple.com/",
        "https://169.254.169.254/web.push.apple.com", "https://169.254.169.254?.push.apple.com",
        "https://web%2epush.apple.com/x", "https://web.push.apple.com%00.evil.example/x",  // percent-encoding
        "https://wеb.push.apple.com/x",  // Cyrillic е: no IDNA
        "https://xn--wb-vlc.push.apple.com.evil.example/x", "https://web.push.apple.com:/x",  // empty port
        "https://web.push.apple.com:99999/x", "https://web.push.apple.com:+443/x", "https://web..push.apple.com/x",
        "https://-web.push.apple.com/x", "https://web.push.apple.com/x y", "https://web.push.apple.com/x\n",
        "https:web.push.apple.com/x", "https:///web.push.apple.com/x", "https://", "", "web.push.apple.com/x",
    ])
    func anythingElseIsNotAllowedByDefault(endpoint: String) {
        #expect(!Self.allows(endpoint))
    }

    @Test func hostsAreComparedExactlyNotResolved() {
        #expect(Self.allows("https://127.0.0.1:8443/push/1", Self.loopbackOnly))
        for other in [
            "https://localhost:8443/push/1", "https://127.0.0.2:8443/push/1", "https://[::1]:8443/push/1",
            "https://127.1:8443/p", "https://2130706433:8443/p", "https://0x7f.0.0.1:8443/p",
            "https://0177.0.0.1:8443/p", "https://127.0.0.01:8443/p", "https://127.0.0.1.:8443/p",
            "https://[::ffff:127.0.0.1]:8443/p", "https://127.0.0.1.nip.io/p", "https://user@127.0.0.1:8443/p",
            "http://127.0.0.1:8443/p",
        ] {
            #expect(!Self.allows(other, Self.loopbackOnly), "\(other)")
        }
    }

    @Test func ipv6LiteralsAreComparedInTheirWrittenForm() throws {
        let list = WebPushAllowList(adding: [try WebPushAllowList.rule("::1")])
        #expect(Self.allows("https://[::1]:9000/p", list))
        #expect(Self.allows("https://[::1]/p", list))
        #expect(!Self.allows("https://[0:0:0:0:0:0:0:1]:9000/p", list))
        #expect(!Self.allows("https://[::1%25lo]:9000/p", list))
        #expect(!Self.allows("https://[::1:9000/p", list))
        #expect(!Self.allows("https://127.0.0.1:9000/p", list))
        #expect(try WebPushAllowList.rule("[::1]") == .host("[::1]"))
    }

    @Test func aStarPrefixAllowsTheDomainAndItsSubdomains() throws {
        let list = WebPushAllowList(adding: [try WebPushAllowList.rule("*.Push.Example.com")])
        #expect(Self.allows("https://push.example.com/p", list))
        #expect(Self.allows("https://eu.push.example.com/p", list))
        #expect(!Self.allows("https://evilpush.example.com/p", list))
        #expect(!Self.allows("https://example.com/p", list))
        let exact = WebPushAllowList(adding: [try WebPushAllowList.rule("push.example.com")])
        #expect(Self.allows("https://push.example.com/p", exact))
        #expect(!Self.allows("https://eu.push.example.com/p", exact))
    }

    @Test(arguments: [
        "https://push.example.com", "push.example.com:443", "push.example.com/", "push.example.com.", "*.com", "*.",
        "*", "*.127.0.0.1", "127.1", "user@host", "", "push example", "pu%73h.example.com", "[::1", "::1]", "[::1]:443",
    ])
    func anAllowedHostIsAHostOrAStarDomain(text: String) {
        #expect(throws: SenderOptionError.self) { try WebPushAllowList.rule(text) }
    }

    @Test func theEndpointKeepsItsPathAndNamesItsOrigin() throws {
        let endpoint = try #require(WebPushEndpoint("HTTPS://Web.Push.Apple.com:443/3/device/AbC?x=1"))
        #expect(endpoint.host == "web.push.apple.com")
        #expect(endpoint.origin == "https://web.push.apple.com")
        #expect(endpoint.url == "https://web.push.apple.com:443/3/device/AbC?x=1")
        let loopback = try #require(WebPushEndpoint("https://127.0.0.1:8443"))
        #expect(loopback.origin == "https://127.0.0.1:8443")
        #expect(loopback.url == "https://127.0.0.1:8443/")
        #expect(try #require(WebPushEndpoint("https://[::1]:8443/p")).origin == "https://[::1]:8443")
    }
}
