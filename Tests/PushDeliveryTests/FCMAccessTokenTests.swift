import Foundation
import Logging
import PushDelivery
import Synchronization
import Testing

/// The access token of a project (SPEC 10.4): one grant, cached until 5 minutes before it expires, one grant at a
/// time, renewed once, and what a token endpoint's refusal or outage means.
struct FCMAccessTokenTests {
    /// A token endpoint tests script: each grant posted is recorded and answered with the next answer (the last one
    /// again when the list is used up), after `delay`.
    final class TokenEndpoint: Sendable {
        struct Posted: Sendable {
            var url: String
            var headers: [String: String]
            var body: String
        }

        private let state: Mutex<(answers: [HTTPExchange], posted: [Posted])>
        let delay: Duration

        init(_ answers: [HTTPExchange], delay: Duration = .zero) {
            state = Mutex((answers, []))
            self.delay = delay
        }

        static func token(_ token: String, expiresIn: String = "3599") -> HTTPExchange {
            .answered(
                HTTPAnswer(
                    status: 200,
                    body: Array(#"{"access_token":"\#(token)","expires_in":\#(expiresIn),"token_type":"Bearer"}"#.utf8))
            )
        }

        var posted: [Posted] { state.withLock { $0.posted } }

        func exchange(url: String, headers: [(name: String, value: String)], body: [UInt8]) async -> HTTPExchange {
            let answer = state.withLock { state -> HTTPExchange in
                state.posted.append(
                    Posted(
                        url: url, headers: Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }),
                        body: String(decoding: body, as: UTF8.self)))
                return state.answers.count > 1 ? state.answers.removeFirst() : state.answers[0]
            }
            if delay > .zero { try? await Task.sleep(for: delay) }
            return answer
        }
    }

    let clock = ManualClock()

    func tokens(_ endpoint: TokenEndpoint) throws -> FCMAccessToken {
        FCMAccessToken(account: try FCMSamples.account(), logger: Logger(label: "fcm-test"), now: clock.function) {
            await endpoint.exchange(url: $0, headers: $1, body: $2)
        }
    }

    @Test func theGrantIsPostedAsAFormToTheTokenURI() async throws {
        let endpoint = TokenEndpoint([TokenEndpoint.token("ya29.first")])
        #expect(try await tokens(endpoint).current() == .token("ya29.first"))
        let posted = try #require(endpoint.posted.first)
        #expect(posted.url == FCMSamples.tokenURI)
        #expect(posted.headers["content-type"] == "application/x-www-form-urlencoded")
        let prefix = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion="
        #expect(posted.body.hasPrefix(prefix))
        let assertion = String(posted.body.dropFirst(prefix.count))
        let claims = try #require(Base64URLCoding.decode(String(assertion.split(separator: ".")[1])))
        let object = try #require(JSONSerialization.jsonObject(with: Data(claims)) as? [String: Any])
        #expect((object["iat"] as? NSNumber)?.int64Value == clock.now)
    }

    @Test func theTokenIsCachedUntilFiveMinutesBeforeItExpires() async throws {
        let endpoint = TokenEndpoint([
            TokenEndpoint.token("ya29.first"), TokenEndpoint.token("ya29.second", expiresIn: "\"3599\""),
        ])
        let tokens = try tokens(endpoint)
        #expect(await tokens.current() == .token("ya29.first"))
        clock.advance(by: 3599 - 300 - 1)
        #expect(await tokens.current() == .token("ya29.first"))
        #expect(endpoint.posted.count == 1)
        clock.advance(by: 1)
        #expect(await tokens.current() == .token("ya29.second"))
        #expect(endpoint.posted.count == 2 && tokens.grantsPosted == 2)
    }

    @Test func aShortLivedTokenIsUsedForHalfItsLifetime() async throws {
        let endpoint = TokenEndpoint([TokenEndpoint.token("ya29.a", expiresIn: "60"), TokenEndpoint.token("ya29.b")])
        let tokens = try tokens(endpoint)
        #expect(await tokens.current() == .token("ya29.a"))
        clock.advance(by: 29)
        #expect(await tokens.current() == .token("ya29.a"))
        clock.advance(by: 1)
        #expect(await tokens.current() == .token("ya29.b"))
    }

    @Test func concurrentSendsWaitForOneGrant() async throws {
        let endpoint = TokenEndpoint([TokenEndpoint.token("ya29.shared")], delay: .milliseconds(200))
        let tokens = try tokens(endpoint)
        let grants = await withTaskGroup(of: FCMAccessToken.Grant.self) { group in
            for _ in 0..<20 { group.addTask { await tokens.current() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(grants.count == 20 && grants.allSatisfy { $0 == .token("ya29.shared") })
        #expect(endpoint.posted.count == 1)
    }

    @Test func aRenewalReplacesTheRefusedTokenOnceForEveryone() async throws {
        let endpoint = TokenEndpoint([TokenEndpoint.token("ya29.old"), TokenEndpoint.token("ya29.new")])
        let tokens = try tokens(endpoint)
        #expect(await tokens.current() == .token("ya29.old"))
        #expect(await tokens.renew(replacing: "ya29.old") == .token("ya29.new"))
        // A second send refused with the old token gets the new one, without a third grant.
        #expect(await tokens.renew(replacing: "ya29.old") == .token("ya29.new"))
        #expect(endpoint.posted.count == 2)
    }

    @Test func aRefusedGrantIsACredentialsAnswerAndNothingIsCached() async throws {
        let refused = HTTPExchange.answered(
            HTTPAnswer(status: 400, body: Array(#"{"error":"invalid_grant","error_description":"Invalid JWT"}"#.utf8)))
        let endpoint = TokenEndpoint([refused, TokenEndpoint.token("ya29.later")])
        let tokens = try tokens(endpoint)
        #expect(await tokens.current() == .failed(.credentials(AnswerDetails(status: 400, reason: "grant_refused"))))
        #expect(await tokens.current() == .token("ya29.later"))
    }

    @Test func anUnavailableTokenEndpointIsTransient() async throws {
        let endpoint = TokenEndpoint([
            .answered(HTTPAnswer(status: 503, headers: [(name: "Retry-After", value: "7")], body: [])),
            .failed(HTTPFailure(kind: .connectFailed)),
            .answered(HTTPAnswer(status: 200, body: Array(#"{"token_type":"Bearer"}"#.utf8))),
            .answered(HTTPAnswer(status: 200, body: Array("<html>".utf8))),
        ])
        let tokens = try tokens(endpoint)
        #expect(
            await tokens.current()
                == .failed(.transient(AnswerDetails(status: 503, reason: "grant_unavailable"), retryAfter: .seconds(7)))
        )
        #expect(
            await tokens.current()
                == .failed(.transient(AnswerDetails(reason: "grant_connect_failed"), retryAfter: nil)))
        #expect(
            await tokens.current() == .failed(.credentials(AnswerDetails(status: 200, reason: "grant_answer_invalid"))))
        #expect(
            await tokens.current() == .failed(.credentials(AnswerDetails(status: 200, reason: "grant_answer_invalid"))))
    }
}
